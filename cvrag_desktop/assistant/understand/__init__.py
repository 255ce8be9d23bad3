"""Understanding a question: its words and concepts, typos, follow-ups, the people it names, the computed intent it wants, and the route with its filters.

The first stage of the assistant's cascade (understand -> facts -> answer)."""
