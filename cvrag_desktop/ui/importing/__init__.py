"""Getting files in: drops of files and folders, the files an import made, and the progress of a batch."""
