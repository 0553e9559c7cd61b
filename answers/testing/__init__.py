"""Test doubles that stand in for outside services (no Django imports here)."""
