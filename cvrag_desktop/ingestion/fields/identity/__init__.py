"""Who the CV is about: the person's name, headline, given names, and contact facts (e-mails, phones,
links, location).
"""
