"""Every threshold of the pipeline in one frozen value; services fill it from settings."""
from dataclasses import dataclass, field

from answers.pipeline.text.tokens import DEFAULT as DEFAULT_TOKENIZER
from answers.pipeline.text.tokens import TokenizerConfig


@dataclass(frozen=True)
class PipelineConfig:
    """Thresholds and limits of §5, with the defaults the README documents."""

    top_k: int = 8
    min_score: float = 1.0
    min_coverage: float = 0.6
    context_tokens: int = 1200
    max_blocks: int = 5
    per_source: int = 2
    min_overlap: float = 0.3
    min_sentence_coverage: float = 0.7
    min_answer_score: float = 0.65  # from `evaluate --sweep` on the tuning parts (README, Evaluation)
    common_term_share: float = 0.5
    max_sentences: int = 3
    conflict_window: int = 6
    semantic: bool = False  # the reader scores closeness in meaning too (RAG_EMBEDDINGS on and the model loads)
    tokenizer: TokenizerConfig = field(default=DEFAULT_TOKENIZER)
