"""The steps rounds are made of: each lists its legal actions and processes one."""
