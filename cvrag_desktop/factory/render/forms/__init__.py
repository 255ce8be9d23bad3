"""National form CVs: the Japanese 履歴書 and the German tabular Lebenslauf."""
