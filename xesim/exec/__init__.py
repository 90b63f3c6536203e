"""Execution: the reference interpreter, host runtime, kernel launcher (ARCHITECTURE.md "Data flow")."""
