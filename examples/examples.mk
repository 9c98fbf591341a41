# Examples: small programs a user copies from; built and run by make check.
EXAMPLE_PROGS =
