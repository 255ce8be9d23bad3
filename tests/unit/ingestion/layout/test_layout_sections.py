"""Headings wrapped over two lines, continuation lines that look like headings, and skill pieces."""

from __future__ import annotations

from cvrag_desktop.ingestion.fields.skills import _skill_pieces, extract_skills
from cvrag_desktop.ingestion.layout.reading_order import TextLine
from cvrag_desktop.ingestion.layout.sections import find_sections
from cvrag_desktop.ingestion.read.extracted import ExtractedDoc
from cvrag_desktop.text.vocab.lexicon import load_lexicon
from cvrag_desktop.text.vocab.skills import canonical_skill


def _doc(rows: list[tuple[str, bool, float]]) -> ExtractedDoc:
    """Lines stacked top to bottom: (text, bold, extra gap before)."""
    lines, y = [], 40.0
    for text, bold, gap in rows:
        y += gap
        lines.append(TextLine(text=text, page=0, bbox=(20, y, 20 + 5 * len(text), y + 10.8), size=9.0, bold=bold,
                              column=1))
        y += 11.0
    return ExtractedDoc(lines=lines, page_count=1, method="pymupdf")


def test_heading_wrapped_over_two_lines_is_one_heading():
    doc = _doc([("Paulina Pisacane", True, 0), ("Competenze", True, 8), ("Moodle", False, 0),
                ("Google Classroom", False, 0), ("Conoscenze", True, 8), ("linguistiche", True, 0),
                ("Italiano: Madrelingua", False, 0), ("Inglese: Avanzato", False, 0)])
    blocks = {b.section: (b.title, [doc.lines[i].text for i in b.lines]) for b in find_sections(doc)}
    assert blocks["languages"] == ("Conoscenze linguistiche", ["Italiano: Madrelingua", "Inglese: Avanzato"])
    assert blocks["skills"][1] == ["Moodle", "Google Classroom"]


def test_qualifier_under_a_heading_is_part_of_it():
    doc = _doc([("Lidia Bernini", True, 0), ("Esperienza", True, 8), ("Sales Rep", False, 0),
                ("Competenze", True, 8), ("tecniche", True, 0), ("HubSpot", False, 0), ("Excel", False, 0)])
    blocks = {b.section: (b.title, [doc.lines[i].text for i in b.lines]) for b in find_sections(doc)}
    assert blocks["skills"] == ("Competenze tecniche", ["HubSpot", "Excel"])


def test_lowercase_continuation_is_not_a_heading():
    doc = _doc([("Ana Ruiz", True, 0), ("Habilidades", True, 8), ("Selección de personal", False, 0),
                ("Entrevistas por", False, 0), ("competencias", False, 0), ("Workday", False, 0)])
    sections = [b.section for b in find_sections(doc)]
    assert sections.count("skills") == 1
    skill_block = next(b for b in find_sections(doc) if b.section == "skills")
    skills = [s for s, _ in extract_skills(doc.lines, skill_block.lines, [])]
    assert "Entrevistas por competencias" in skills and "Workday" in skills


def test_known_skill_with_a_separator_stays_whole():
    assert _skill_pieces("psql, Git, Docker, CI / CD") == ["psql", "Git", "Docker", "CI / CD"]
    assert canonical_skill("CI / CD") == "CI/CD"
    assert _skill_pieces("Kubernetes (K8s)") == ["Kubernetes (K8s)"]
    assert _skill_pieces("Python / Java / Go") == ["Python", "Java", "Go"]


def test_conjunction_splits_only_known_skills():
    assert _skill_pieces("Python and Java") == ["Python", "Java"]
    assert _skill_pieces("Python and data pipelines") == ["Python", "data pipelines"]
    assert _skill_pieces("Health and Safety") == ["Health and Safety"]
    assert _skill_pieces("Recrutamento e seleção") == ["Recrutamento e seleção"]
    assert _skill_pieces("Paghe e contributi") == ["Paghe e contributi"]


def test_hyphenated_spelling_of_a_known_skill():
    assert canonical_skill("React-Native") == "React Native"
    found = [m.group(0) for m in load_lexicon().skill_pattern.finditer("Built apps in React-Native and Kotlin")]
    assert "React-Native" in found


def test_degree_names_of_more_systems_are_degrees():
    from cvrag_desktop.text.vocab.lexicon import load_lexicon

    lex = load_lexicon()
    for degree in ("Maîtrise d’informatique", "DESS Réseaux", "Physics MSci", "Postgraduate Diploma in Teaching",
                   "Associate of Applied Science"):
        assert lex.degree_re.search(degree), degree


def test_spoken_languages_outside_their_section():
    from cvrag_desktop.ingestion.fields.skills import extract_languages
    from cvrag_desktop.ingestion.layout.reading_order import TextLine

    rows = ["Skills", "Kubernetes, Terraform", "Anglais", "Espagnol (courant)", "Languages\tSpanish (native), Afrikaans",
            "语言：英语 - 熟练", "Java"]
    lines = [TextLine(text=t, page=0, bbox=(0, 10 * i, 100, 10 * i + 9), size=10, bold=False) for i, t in enumerate(rows)]
    found = [lang for lang, _ in extract_languages(lines, [], list(range(len(rows))))]
    assert found == ["English", "Spanish", "Afrikaans"]


def test_skill_items_lose_ratings_and_merged_known_skills_split():
    from cvrag_desktop.ingestion.fields.skills import _clean_item, _plausible_skill

    assert _clean_item("⋆⋆⋆ Matlab") == ["Matlab"]
    assert _clean_item("Terraform 90 %") == ["Terraform"]
    assert _clean_item("♥Java") == ["Java"]
    assert _clean_item("Scikit-learn NumPy") == ["Scikit-learn", "NumPy"]
    assert _clean_item(".NET") == [".NET"] and _clean_item("C#") == ["C#"]
    assert not _plausible_skill("English (native speaker)")
    assert not _plausible_skill("熟悉常用的设计模式、数据结构与算法。")
    assert _plausible_skill("Finite Element Analysis")


def test_a_drop_cap_set_apart_still_names_the_section():
    from cvrag_desktop.ingestion.layout.sections import lexicon_section

    assert lexicon_section("E xperience") == "experience"
    assert lexicon_section("E ducation") == "education"


def test_smaller_unknown_headings_divide_a_section_instead_of_ending_it():
    from cvrag_desktop.ingestion.layout.reading_order import TextLine
    from cvrag_desktop.ingestion.layout.sections import find_sections
    from cvrag_desktop.ingestion.read.extracted import ExtractedDoc

    rows = [("Contact", 14, True), ("ana@example.org", 10, False), ("Skills", 14, True), ("Python, SQL", 10, False),
            ("Experience", 17, True), ("Full Time", 14, True), ("Engineer at Initrode", 10, False),
            ("2019 – 2021", 10, False), ("Part Time", 14, True), ("Tutor at Globex", 10, False),
            ("Education", 17, True), ("BSc Physics", 10, False)]
    lines = [TextLine(text=t, page=0, bbox=(40, 20 * i, 300, 20 * i + s), size=s, bold=b) for i, (t, s, b) in enumerate(rows)]
    blocks = find_sections(ExtractedDoc(lines=lines, page_count=1, method="pymupdf", page_sizes=[(595, 842)]))
    experience = next(b for b in blocks if b.section == "experience")
    assert {6, 9} <= set(experience.lines)  # both roles stay in the experience section
    assert not {5, 8} & set(experience.lines)  # the dividers are not part of any entry
    assert "other" not in [b.section for b in blocks]


def test_group_labels_proficiency_words_and_sentence_pieces_are_not_skills(tmp_path):
    from cvrag_desktop.ingestion.normalize import normalize_document
    from cvrag_desktop.ingestion.read.extract import extract_document
    from tests.support.minipdf import write_pdf

    items = [(40, 20, "Dana Okonkwo", 20, True), (40, 45, "Data Analyst", 12),
             (40, 70, "Skills", 14, True),
             (40, 92, "Web Development"), (200, 92, "Django, Nginx, PostgreSQL"),
             (40, 106, "• Experienced Go, Python, a little bit of Haskell"),
             (40, 120, "Working knowledge"), (40, 134, "• Kubernetes, along with Helm"),
             (40, 800, "JUNE 2, 2024"), (200, 800, "DANA OKONKWO · CURRICULUM VITAE")]
    doc = extract_document(write_pdf(tmp_path / "cv.pdf", [items]))
    cv, _ = normalize_document(doc)
    for junk in ("Web Development", "Working knowledge", "along with Helm", "JUNE 2", "DANA OKONKWO",
                 "CURRICULUM VITAE", "Experienced Go", "a little bit of Haskell"):
        assert not any(s.lower() == junk.lower() for s in cv.skills), junk
    for skill in ("Django", "Nginx", "PostgreSQL", "Go", "Python", "Kubernetes"):
        assert any(s.lower() == skill.lower() for s in cv.skills), skill


def test_merged_skill_items_are_split_and_group_labels_and_placeholders_dropped():
    from cvrag_desktop.ingestion.fields.skills import _clean_item

    assert _clean_item("Jenkins Back-end Django") == ["Jenkins", "Django"]
    assert _clean_item("HTML5 Programming Node.js") == ["HTML5", "Node.js"]
    assert _clean_item("CI/CD VirtualBox") == ["CI/CD", "VirtualBox"]  # one unknown, tool-shaped word is kept
    for whole in ("Amazon Redshift", "Apache Spark Streaming", "Microsoft Excel", "Data Pipelines"):
        assert _clean_item(whole) == [whole]  # a vendor's product or a phrase stays whole
    assert _clean_item("Back End") == [] and _clean_item("Databases") == []
    assert _clean_item("categoría 1 XXX") == [] and _clean_item("xxx") == []


def test_a_bulleted_skills_list_in_two_columns_keeps_its_unknown_first_items():
    """"• Menu planning <tab> • Catering": both cells are items; the first is no group label of the second."""
    rows = ["• Menu planning\t• Catering", "• Kitchen brigade training\t• Allergen control", "• HACCP\t• Sous Vide"]
    lines = [TextLine(t, 0, (60, 100 + 14 * n, 400, 110 + 14 * n), 10.0, False) for n, t in enumerate(rows)]
    got = [s for s, _ in extract_skills(lines, [0, 1, 2], [])]
    for item in ("Menu planning", "Catering", "Kitchen brigade training", "Allergen control", "HACCP", "Sous Vide"):
        assert any(g.lower() == item.lower() for g in got), (item, got)


def test_a_lone_ideograph_is_no_skill_but_one_letter_languages_are():
    from cvrag_desktop.ingestion.normalize import _not_a_skill

    assert _not_a_skill("日", "Nora Castell", None)
    assert not _not_a_skill("C", "Nora Castell", None)
    assert not _not_a_skill("R", "Nora Castell", None)


def test_a_bracketed_list_gives_each_of_its_items():
    """"Head (A, B)" is the head and its items, not "Head (A" and "B)"; a bracket of levels is not a skill."""
    from cvrag_desktop.ingestion.fields.skills import _clean_item

    def items(text: str) -> list[str]:
        return [q for p in _skill_pieces(text) for q in _clean_item(p)]

    assert items("Office suite (Excel, Outlook, Visio), Jira") == ["Office suite", "Excel", "Outlook", "Visio", "Jira"]
    assert items("Scripting (Bash, Perl)") == ["Scripting", "Bash", "Perl"]
    assert items("Python (advanced, 6 years), SQL") == ["Python", "SQL"]
    assert items("German (fluent, B2)") == ["German"]
    assert items("Python (2.7, 3.x), Perl") == ["Python", "Perl"]
    assert items("Kubernetes (K8s), Helm") == ["Kubernetes (K8s)", "Helm"]  # no list inside: one known skill


def test_a_tool_written_against_chinese_or_japanese_text_is_found():
    """Han and kana are word characters to ``re``; "熟悉Redis、" must still bound the name, "Pythonic" must not."""
    pattern = load_lexicon().skill_pattern
    assert [m.group(0) for m in pattern.finditer("熟悉Redis和Kafka，会用docker部署")] == ["Redis", "Kafka", "docker"]
    assert [m.group(0) for m in pattern.finditer("ツール：Terraformを使用")] == ["Terraform"]
    assert [m.group(0) for m in pattern.finditer("pythonic code and myjava")] == []
    lines = [TextLine(text=t, page=0, bbox=(0, 10 * i, 300, 10 * i + 9), size=10, bold=False)
             for i, t in enumerate(["专业技能", "熟悉Redis和Kafka的使用，能独立部署服务。", "编程：Go"])]
    found = [s for s, _ in extract_skills(lines, [1, 2], [])]
    assert {"Redis", "Kafka", "Go"} <= set(found)


def test_languages_written_inside_a_chinese_or_japanese_run_are_found():
    """"英语六级" and "日本语N2" have no word boundary around the name; "Englishman" is still not English."""
    from cvrag_desktop.ingestion.fields.skills import extract_languages

    pattern = load_lexicon().language_re
    assert [m.group(0) for m in pattern.finditer("英语六级，日本语N2，会说Deutsch")] == ["英语", "日本语", "Deutsch"]
    assert [m.group(0) for m in pattern.finditer("an Englishman in Frenchtown")] == []
    rows = ["语言能力", "英语六级，日本语N2"]
    lines = [TextLine(text=t, page=0, bbox=(0, 10 * i, 300, 10 * i + 9), size=10, bold=False) for i, t in enumerate(rows)]
    assert [lang for lang, _ in extract_languages(lines, [1], [0, 1])] == ["English", "Japanese"]
