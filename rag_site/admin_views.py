"""Admin building blocks shared by the apps."""
from django.http import HttpRequest


class ReadOnlyAdminMixin:
    """A record that is written by code only: staff may read it, never add, change or delete it."""

    def has_add_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:
        return False
