"""Staff insight read from the conversation log: the gaps, daily activity and its plot, golden cases from the log."""
