"""(filled in by its family: see mnn/cv/__init__.py)."""
__all__ = []
