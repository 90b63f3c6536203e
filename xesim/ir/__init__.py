"""The IR: lexer, parser, printer, format engine, ops, types and attributes, op definitions (isa/dialects).

Knows nothing about execution (ARCHITECTURE.md "Layers")."""
