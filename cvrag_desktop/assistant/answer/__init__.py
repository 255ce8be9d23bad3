"""The answer: its contract (answered with evidence ids, or unknown), the support check of every claim, extractive scoped answers and comparisons.

The last stage of the assistant's cascade (understand -> facts -> answer)."""
