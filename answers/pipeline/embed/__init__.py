"""Sentence embeddings for semantic matching (optional: without the model's packages everything stays lexical)."""
