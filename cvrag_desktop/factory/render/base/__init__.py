"""What every renderer shares: the printed CV prepared once, per-CV extras, fonts, page counts and
fixed wording.
"""
