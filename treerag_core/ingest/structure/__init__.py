"""ingest.structure."""
