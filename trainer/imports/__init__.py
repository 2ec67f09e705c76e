"""Converters from foreign game logs into `jipai-deal/1` records (records.md "Imports")."""
