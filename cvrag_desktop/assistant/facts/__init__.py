"""Facts about candidates answered in code: the structured facts store, one decision per screening criterion, analytics, aggregates, gaps, relations, lookups, credentials and fields of work.

The second stage of the assistant's cascade (understand -> facts -> answer)."""
