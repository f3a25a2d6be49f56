"""The storage seam (``base.DocumentStore``) and the file store that implements it.

Documents, their uploaded sources and every cache beside a registry belong to one store;
callers open it with ``open_store(registry_path)`` and never derive paths themselves.
"""
