"""route: which documents of the library a question is about, before any is opened."""

__all__ = []
