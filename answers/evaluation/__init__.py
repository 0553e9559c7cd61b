"""Evaluation of the answer pipeline against a golden file of questions with known answers (issue #7)."""
