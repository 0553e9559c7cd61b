"""General names: a maker's or machine's name covers the system a text names, and nothing else."""
from answers.pipeline.text.hypernyms import covered_in


def test_a_machine_names_its_system():
    assert covered_in("Mac", "The desktop app runs on macOS 13 or later.")
    assert covered_in("PC", "The desktop app runs on Windows 10 or later.")


def test_a_maker_names_its_systems():
    assert covered_in("Apple", "The iOS app requires iOS 16 or later.")


def test_a_general_name_does_not_cover_another_system():
    assert not covered_in("Mac", "The desktop app runs on Windows 10 or later.")
    assert not covered_in("Apple", "The Android app requires Android 12 or later.")


def test_a_system_is_matched_as_a_word():
    assert not covered_in("Apple", "The biosphere is large.")
    assert not covered_in("Samsung", "The Android app requires Android 12 or later.")
