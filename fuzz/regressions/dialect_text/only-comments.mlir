// An input of comments and blank lines only: an error that says the text holds no op.

// (nothing else)
