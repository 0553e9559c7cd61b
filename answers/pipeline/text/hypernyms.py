"""General names for specific ones: a sentence saying "on a Mac" names what a span's "macOS" names."""
import re

# A general name (lower-cased, as written) and the specific names it covers: the platforms a product runs on are
# named by their maker or machine as often as by the system ("on a Mac", "on a PC", "on Apple devices").
_COVERS: dict[str, tuple[str, ...]] = {
    "mac": ("macos", "os x"),
    "macs": ("macos", "os x"),
    "pc": ("windows",),
    "pcs": ("windows",),
    "apple": ("ios", "ipados", "macos"),
}


def covered_in(name: str, text: str) -> bool:
    """Whether `name` is a general name for a specific one `text` writes as a word ("Mac" and "runs on macOS 13")."""
    specific = _COVERS.get(name.strip().lower(), ())
    lowered = text.lower()
    return any(re.search(rf"(?<![\w-]){re.escape(word)}(?![\w-])", lowered) for word in specific)
