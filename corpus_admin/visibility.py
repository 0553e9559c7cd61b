"""Who may see which audience (§3): the one filter every surface applies."""
from typing import cast

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser, User

from answers.pipeline.records import AUDIENCE_RANK
from corpus_admin.models import Audience

PARTNER_GROUP = "partners"

PUBLIC_ONLY: tuple[str, ...] = (Audience.PUBLIC.value,)
WITH_PARTNER: tuple[str, ...] = (Audience.PUBLIC.value, Audience.PARTNER.value)
EVERYONE: tuple[str, ...] = (Audience.PUBLIC.value, Audience.PARTNER.value, Audience.INTERNAL.value)


def looser_audiences(audience: str) -> tuple[str, ...]:
    """The audiences less restrictive than this one, by the ranks retrieval's tiers use: public < partner < internal."""
    return tuple(other for other in Audience.values if AUDIENCE_RANK[other] < AUDIENCE_RANK[audience])


def audiences_for(user: AbstractBaseUser | AnonymousUser | None) -> tuple[str, ...]:
    """Return the audiences this caller may see, read from the database as it is now."""
    if user is None or not user.is_authenticated or not user.is_active:
        return PUBLIC_ONLY
    # Signed in: the site's user model, django.contrib.auth's User (the stubs type request.user as AbstractBaseUser).
    user = cast(User, user)
    if user.is_staff:
        return EVERYONE
    if user.groups.filter(name=PARTNER_GROUP).exists():
        return WITH_PARTNER
    return PUBLIC_ONLY
