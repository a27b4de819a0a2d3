"""One migration script a schema revision, named for its revision id."""
