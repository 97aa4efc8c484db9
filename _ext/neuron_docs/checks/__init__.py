"""Checks a build runs on its pages: prose against the data (the drift check) and the age of prices."""
