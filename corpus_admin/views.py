"""Chunk pages and the library: translate a request into a selector call and a template."""
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.cache import add_never_cache_headers, patch_cache_control

from answers.pipeline.evidence import instruction_ranges
from corpus_admin.chunk_text import chunk_parts, line_label, marked_segments, page_label
from corpus_admin.highlights import highlighted_sentences
from corpus_admin.models import Audience
from corpus_admin.selectors import (
    chunk_current_version,
    chunk_neighbours,
    chunk_visible,
    library_sources,
    sentence_spans,
)
from corpus_admin.visibility import audiences_for


def chunk_detail(request: HttpRequest, chunk_id: str) -> HttpResponse:
    """The permanent page of one chunk; a chunk the caller may not see is the same 404 as a missing one.

    `?s=3` or `?s=3-4` (a citation's link) highlights those sentences; anything else in it is ignored.
    """
    audiences = audiences_for(request.user)
    chunk = chunk_visible(chunk_id=chunk_id, audiences=audiences)
    if chunk is None:
        raise Http404("No such passage.")
    previous, following = chunk_neighbours(chunk, audiences=audiences)
    sentences = sentence_spans(chunk.sentences)
    # Stored flags, or for a chunk stored before sentences were, the paragraphs the pipeline's rule flags now (§2.8).
    instructions = instruction_ranges(chunk.text, sentences)
    response = render(
        request,
        "corpus_admin/chunk_detail.html",
        {
            "chunk": chunk,
            "source": chunk.source,
            "previous": previous,
            "following": following,
            "current": chunk_current_version(chunk, audiences=audiences),
            "superseded": chunk.version != chunk.source.version or chunk.superseded_at is not None,
            "parts": chunk_parts(chunk.text, sentences),
            "instructions": bool(instructions),
            "segments": marked_segments(chunk.text, instructions) if not sentences and instructions else [],
            "page_label": page_label(chunk.source.media_type),
            "line_label": line_label(chunk.source.media_type),
            "highlighted": highlighted_sentences(request.GET.get("s"), len(sentences)),
        },
    )
    if chunk.audience != Audience.PUBLIC:
        add_never_cache_headers(response)
    else:
        patch_cache_control(response, private=True)
    return response


def library(request: HttpRequest) -> HttpResponse:
    """The served sources the caller may see, each linking to its first passage."""
    sources = library_sources(audiences=audiences_for(request.user))
    response = render(request, "corpus_admin/library.html", {"sources": sources})
    add_never_cache_headers(response)
    return response
