"""Retrieval evaluation: questions with gold pages or sections, navigation scored against a
chunk baseline at the same token budget over the same text."""
