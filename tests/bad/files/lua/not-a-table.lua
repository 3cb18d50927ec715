return 42
