"""What a long-lived process needs around it: the user's config file and the garbage collector's pacing."""
