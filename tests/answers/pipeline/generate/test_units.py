"""Answer units: stored sentences grouped with the context they need, quoting only stored words."""
from answers.pipeline.generate.units import block_units, quoted_sentences
from tests.answers.pipeline.generate.documents import document_blocks

GUIDE = """# Sessions

## SESSION_COOKIE_AGE

Default: 1209600 (2 weeks, in seconds).

The age of session cookies, in seconds.

## Resetting a password

To reset a password:

1. Open the sign-in page of the web app.
2. Click Forgot password under the form.
3. Follow the link that arrives by email.

## Tokens

Tokens are issued by the admin console. They expire after one hour.

## Automatic packages

The package managers list the automatic packages no longer needed. apt autoremove will get rid of those packages.

## SQL Commands

Table of Contents

SET TRANSACTION — set the characteristics of the current transaction

SHOW — show the value of a run-time parameter

START TRANSACTION — start a transaction block

- SET TRANSACTION — set the characteristics of the current transaction
- SHOW — show the value of a run-time parameter
- START TRANSACTION — start a transaction block

## Dashes in steps

- Open the settings page — it is under your name.
- Choose the plan you want to keep.
- Confirm the change with the button at the bottom.

## Hosts

The entry that involves host name resolution is hosts. By default, it contains files dns.
In this case, the resolver reads the hosts file first. By default, the cache is off.
"""


def units_of(heading: str, *, procedure: bool = False):
    block = next(b for b in document_blocks("guide.md", GUIDE) if b.record.heading_path[-1] == heading)
    return block_units(block, procedure=procedure)


def test_a_field_sentence_carries_its_heading_as_context_not_as_words():
    field = units_of("SESSION_COOKIE_AGE")[0]

    assert field.text == "Default: 1209600 (2 weeks, in seconds)."
    assert field.context == ("Sessions", "SESSION_COOKIE_AGE")


def test_a_sentence_that_depends_on_the_one_before_makes_a_pair():
    pairs = [u for u in units_of("Tokens") if u.kind == "pair"]

    assert [u.text for u in pairs] == ["Tokens are issued by the admin console. They expire after one hour."]


def test_a_sentence_pointing_back_after_an_opening_phrase_makes_a_pair_too():
    pairs = [u.text for u in units_of("Hosts") if u.kind == "pair"]

    assert pairs == [
        "The entry that involves host name resolution is hosts. By default, it contains files dns.",
        "By default, it contains files dns. In this case, the resolver reads the hosts file first.",
    ]  # "By default, the cache is off." points at nothing before it


def test_consecutive_list_items_make_one_steps_unit_for_a_procedure_only():
    steps = [u for u in units_of("Resetting a password", procedure=True) if u.kind == "steps"]

    assert [[s.text for s in u.sentences] for u in steps] == [[
        "Open the sign-in page of the web app.",
        "Click Forgot password under the form.",
        "Follow the link that arrives by email.",
    ]]
    assert not [u for u in units_of("Resetting a password") if u.kind == "steps"]


def test_a_table_of_contents_is_no_steps_but_a_step_with_a_dash_still_is_one():
    assert not [u for u in units_of("SQL Commands", procedure=True) if u.kind in ("steps", "section")]
    steps = [u for u in units_of("Dashes in steps", procedure=True) if u.kind == "steps"]
    assert [len(u.sentences) for u in steps] == [3]  # its dash is inside a sentence, which ends


def test_quoted_sentences_are_stored_sentences_less_their_list_marks():
    block = next(b for b in document_blocks("guide.md", GUIDE) if b.record.heading_path[-1] == "Resetting a password")
    stored = [block.record.text[s.start : s.end] for s in block.record.sentences]

    quoted = quoted_sentences(block)

    assert all(any(q.text in s for s in stored) for q in quoted)
    assert [q.listed for q in quoted] == [False, True, True, True]


REFERENCE = """<html><body>
<h1>Resource Consumption</h1>
<dl>
<dt>shared_buffers (integer)</dt>
<dd><p>Sets the amount of memory the server uses for shared memory buffers. The default is typically 128 megabytes.</p>
<p>On systems with less than 1GB of RAM, a smaller share of memory is appropriate.</p></dd>
<dt>temp_buffers (integer)</dt>
<dd><p>Sets the maximum amount of memory used for temporary buffers. The default is eight megabytes.</p></dd>
<dt>-t transactions</dt>
<dd><p>Number of transactions each client runs. Default is 10.</p></dd>
</dl>
<h1>Short sentences</h1>
<p>Run the benchmark twice. Results vary. Takes 10 minutes.</p>
<h1>Format of a crontab file</h1>
<p>Each line of a crontab entry describes a command with the following fields:</p>
<ul>
<li>the value for the minute (from 0 to 59);</li>
<li>the value for the hour (from 0 to 23);</li>
</ul>
</body></html>
"""


def quoted_of(heading: str):
    block = next(b for b in document_blocks("ref.html", REFERENCE) if b.record.heading_path[-1] == heading)
    return {q.text: q for q in quoted_sentences(block)}


def test_a_definitions_sentences_stand_under_its_term_until_the_next_term():
    quoted = quoted_of("Resource Consumption")

    assert quoted["The default is typically 128 megabytes."].field == "shared_buffers (integer)"
    assert quoted["On systems with less than 1GB of RAM, a smaller share of memory is appropriate."].terms == (
        "shared_buffers (integer)",
    )
    assert quoted["The default is eight megabytes."].field == "temp_buffers (integer)"


def test_a_short_sentence_stating_the_value_of_the_field_it_stands_under_is_quoted_other_short_ones_are_not():
    assert quoted_of("Resource Consumption")["Default is 10."].field == "-t transactions"
    assert list(quoted_of("Short sentences")) == ["Run the benchmark twice."]


def test_list_items_stand_under_the_sentence_that_leads_them():
    quoted = quoted_of("Format of a crontab file")

    lead = "Each line of a crontab entry describes a command with the following fields:"
    assert quoted["the value for the hour (from 0 to 23);"].terms == (lead,)
    assert quoted[lead].terms == ()


def test_a_signature_line_is_a_unit_of_its_own_kind():
    text = "math.isclose(a, b, *, rel_tol=1e-09, abs_tol=0.0): Return True if the values a and b are close.\n"
    block = document_blocks("math.txt", text)[0]

    units = block_units(block)

    assert [u.kind for u in units if u.text.startswith("math.isclose")] == ["signature"]


def test_a_chunks_quoted_sentences_are_read_once_and_a_compressed_copy_afresh(monkeypatch):
    import dataclasses

    from answers.pipeline.generate import units

    block = next(b for b in document_blocks("guide.md", GUIDE) if b.record.heading_path[-1] == "Tokens")
    first = quoted_sentences(block)
    renumbered = dataclasses.replace(block, number=block.number + 4)  # the same chunk issued to another question

    def read_again(*args):
        raise AssertionError("the chunk's sentences were read again")

    monkeypatch.setattr(units, "_with_terms", read_again)
    assert quoted_sentences(renumbered) == first
    compressed = dataclasses.replace(block, text="They expire after one hour.")
    assert [q.text for q in quoted_sentences(compressed)] == ["They expire after one hour."]


def test_for_a_procedure_a_step_naming_those_things_pairs_with_the_sentence_before():
    def pairs(procedure: bool) -> list[str]:
        return [u.text for u in units_of("Automatic packages", procedure=procedure) if u.kind == "pair"]

    assert pairs(True) == [
        "The package managers list the automatic packages no longer needed. "
        "apt autoremove will get rid of those packages."
    ]
    assert pairs(False) == []  # only a "how do I" question reads a later "those" as pointing back


TRANSCRIPT = """# Certificates

## Requesting one

```
Requesting a certificate for example.org
Performing the following challenges:
Enabled Apache rewrite module
Waiting for verification...
Enabled Apache ssl module
Deploying Certificate to VirtualHost /etc/apache2/sites-available/default-ssl.conf
```
"""


def test_a_chunk_of_a_terminal_transcript_alone_has_no_sentence_to_quote():
    block = next(b for b in document_blocks("certs.md", TRANSCRIPT) if b.record.heading_path[-1] == "Requesting one")

    assert block.record.sentences == ()
    assert quoted_sentences(block) == []
    assert block_units(block, procedure=True) == []


COMMANDS = """# Clustering

## Examples

To cluster the database named test from the shell:

```
$ clusterdb test
```

To run a script that holds a citation-like index:

```
$ ./run a[1]
```
"""


def test_a_how_to_quotes_a_lead_with_the_command_after_it_as_one_sentence_its_line_a_code_span():
    block = document_blocks("commands.md", COMMANDS)[0]
    units = block_units(block, procedure=True)
    commands = [u.text for u in units if u.kind == "command"]

    assert commands == ["To cluster the database named test from the shell: `clusterdb test`"]
    # the lead is not offered alone: it promises the command it would leave out
    assert "To cluster the database named test from the shell:" not in [u.text for u in units]
    # a line the verifier would read a citation in is never quoted
    assert not any("a[1]" in text for text in commands)
    # a run of steps that quotes the lead quotes its command with it
    assert all("`clusterdb test`" in u.text for u in units if u.kind == "section" and "named test" in u.text)


def test_a_question_that_is_no_how_to_gets_no_command_unit():
    block = document_blocks("commands.md", COMMANDS)[0]

    assert not [u for u in block_units(block) if u.kind == "command"]
