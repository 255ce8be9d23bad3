"""Linear-time patterns for finding contact details to cover: blind mode, diagnostics' scrubbing.

Every repeat is bounded (RFC 5321 sizes for an e-mail address: local part <= 64, labels <= 63, <= 8 labels)
and every start is anchored by a look-behind, so a hostile line ("a-a-a-…", "x@a-x@a-…") costs time in
proportion to its length: with unbounded repeats each start position rescanned the rest of the line, and a
20,000-character line took seconds to a minute and a half to redact (issue 22, item 9).
"""

from __future__ import annotations

import re

# broader than the reader's pattern (no TLD rule: "name@intranet" is still covered), bounded all the same
EMAIL_LIKE = re.compile(r"(?<![\w.+-])[\w.+-]{1,64}@[\w-]{1,63}(?:\.[\w-]{1,63}){1,8}")
# a phone-like run of digits and separators, 9 to 32 characters long
PHONE_LIKE = re.compile(r"(?<![\w.:-])\+?\d[\d ()./-]{7,30}\d(?![\w.:-])")
# a document's file name (".pdf", ".docx", …), at most 255 characters, starting at a run's first character
DOC_NAME = re.compile(r"(?<![^\s/\\'\"])[^\s/\\'\"]{1,255}\.(?:pdf|docx?|odt|rtf|png|jpe?g|tiff?)\b", re.IGNORECASE)
