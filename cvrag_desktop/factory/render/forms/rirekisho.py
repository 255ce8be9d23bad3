"""``rirekisho`` layout: the Japanese 履歴書, a form of ruled tables.

The title 履 歴 書 and the date the form was filled in ("2026年11月1日現在"); a personal-data table
(ふりがな over 氏名, 生年月日, 現住所, 電話, E-mail); then the 学歴・職歴 table with a 年 | 月 | entry row
per event, oldest first whatever the CV's usual order: "学歴" and "職歴" as centred rows, "筑波大学 入学",
"筑波大学 学士（経営工学） 卒業", "株式会社田中建設 入社" with the title on the row below, "退社",
"現在に至る", and "以上" closing the table; then 免許・資格 rows, and the skills, languages and the
self-presentation in boxes. The labels are the form's own (always Japanese); the birth date, postcode
and the 本人希望 line are presentation only (a generator of their own), never a fact of the truth.
"""

from __future__ import annotations

from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER, TA_RIGHT
from reportlab.lib.units import cm
from reportlab.platypus import Flowable, PageTemplate, Spacer, Table

from cvrag_desktop.factory.render.base.common import PrintedCV, para, styles, tstyle
from cvrag_desktop.factory.render.base.extras import Extras, beside_photo, single_frame_pages

WIDTH = 17 * cm
LABEL = 2.6 * cm
YEAR, MONTH = 1.6 * cm, 1.0 * cm
LINE = colors.Color(0.2, 0.2, 0.2)
WISH = ("貴社の規定に従います。", "勤務地・勤務時間については貴社の規定に従います。")


def _ym(partial: str | None) -> tuple[str, str]:
    """("2019", "4") from "2019-04"; the month cell stays empty for a year-only date."""
    if not partial:
        return "", ""
    return partial[:4], str(int(partial[5:7])) if len(partial) >= 7 else ""


def events(pc: PrintedCV, ex: Extras) -> list[tuple[str, str, str]]:
    """The 学歴・職歴 rows (年, 月, entry), oldest first, with the centred "学歴"/"職歴" rows as ("", "", label)."""
    order = -1 if ex.newest_first else 1
    rows: list[tuple[str, str, str]] = [("", "", "学歴")]
    for ed, truth in zip(pc.education[::order], ex.educations[::order], strict=True):
        rows.append((*_ym(truth.start), f"{ed.institution} 入学"))
        rows.append((*_ym(truth.end), f"{ed.institution} {ed.degree} 卒業"))
    rows.append(("", "", "職歴"))
    previous = ""
    roles = list(zip(pc.roles[::order], ex.experiences[::order], strict=True))
    for k, (role, truth) in enumerate(roles):
        promoted = role.company == previous
        if promoted:
            rows.append((*_ym(truth.start), f"{role.title}に昇格"))
        else:
            rows.append((*_ym(truth.start), f"{role.company} 入社"))
            rows.append(("", "", f"　{role.title}"))
        previous = role.company
        nxt = roles[k + 1][0].company if k + 1 < len(roles) else None
        if truth.is_current:
            rows.append(("", "", "現在に至る"))
        elif nxt != role.company:
            rows.append((*_ym(truth.end), f"{role.company} 退社"))
    rows.append(("", "", "以上"))
    return rows


def _grid(rows: list[list], widths: list[float], font: str, extra: list | None = None) -> Table:
    t = Table(rows, colWidths=widths)
    t.setStyle(tstyle(font, [("GRID", (0, 0), (-1, -1), 0.6, LINE), ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
                             ("TOPPADDING", (0, 0), (-1, -1), 3), ("BOTTOMPADDING", (0, 0), (-1, -1), 3),
                             *(extra or [])]))
    return t


def _birth(ex: Extras) -> str:
    years = [int(e.start[:4]) for e in ex.educations if e.start]
    year = (min(years) if years else ex.as_of.year - 30) - ex.rng.choice((18, 18, 19))
    month, day = ex.rng.randint(1, 12), ex.rng.randint(1, 28)
    age = ex.as_of.year - year - (1 if (month, day) > (ex.as_of.month, ex.as_of.day) else 0)
    return f"{year}年{month}月{day}日生（満{age}歳）"


def rirekisho(pc: PrintedCV, ex: Extras) -> tuple[list[Flowable], list[PageTemplate]]:
    """The 履歴書 as ruled tables (the name's hiragana reading, ``ex.reading``, above it as ふりがな)."""
    st = styles(pc.font, colors.black, pc.size)
    centre = st["body"].clone("rk-centre", alignment=TA_CENTER)
    right = st["body"].clone("rk-right", alignment=TA_RIGHT)
    title = st["name"].clone("rk-title", alignment=TA_CENTER, textColor=colors.black)
    story: list[Flowable] = [para("履 歴 書", title),
                             para(f"{ex.as_of.year}年{ex.as_of.month}月{ex.as_of.day}日現在", right), Spacer(1, 4)]
    values = dict((k, v) for k, v in _contact_kinds(pc))
    personal = [["ふりがな", para(ex.reading, st["small"])], ["氏名", para(pc.name, st["name"].clone("rk-name",
                textColor=colors.black, fontSize=pc.size * 1.8, leading=pc.size * 2.2))],
                ["生年月日", para(_birth(ex), st["body"])]]
    postcode = f"〒{ex.rng.randint(100, 999)}-{ex.rng.randint(0, 9999):04d}"
    if "address" in values:
        personal.append(["現住所", para(f"{postcode} {values['address']}", st["body"])])
    for key, label in (("phone", "電話"), ("email", "E-mail"), ("web", "URL")):
        if key in values:
            personal.append([label, para(values[key], st["body"])])
    width = WIDTH - 3 * cm if pc.photo else WIDTH  # the photo is pasted beside the personal data
    table = _grid([[para(a, st["small"]), b] for a, b in personal], [LABEL, width - LABEL], pc.font)
    story += [*beside_photo([table], pc.photo, WIDTH, pc.font), Spacer(1, 10)]
    rows = [[para("年", centre), para("月", centre), para("学歴・職歴", centre)]]
    spans = []
    for n, (year, month, text) in enumerate(events(pc, ex), start=1):
        if not year and text in ("学歴", "職歴"):
            rows.append(["", "", para(text, centre)])
        elif text == "以上":
            rows.append(["", "", para(text, right)])
        else:
            rows.append([para(year, centre), para(month, centre), para(text, st["body"])])
        if text in ("学歴", "職歴"):
            spans.append(n)
    story += [_grid(rows, [YEAR, MONTH, WIDTH - YEAR - MONTH], pc.font), Spacer(1, 10)]
    if pc.certifications:
        cert_rows = [[para("年", centre), para("月", centre), para("免許・資格", centre)]]
        cert_rows += [["", "", para(c, st["body"])] for c in pc.certifications]
        story += [_grid(cert_rows, [YEAR, MONTH, WIDTH - YEAR - MONTH], pc.font), Spacer(1, 10)]
    boxes = [["語学", para("、".join(pc.languages), st["body"])],
             ["スキル", para("、".join(pc.skills), st["body"])]]
    if pc.summary:
        boxes.append(["自己PR", para(pc.summary, st["body"])])
    boxes.append(["本人希望記入欄", para(ex.rng.choice(WISH), st["body"])])
    story.append(_grid([[para(a, st["small"]), b] for a, b in boxes], [LABEL, WIDTH - LABEL], pc.font,
                       [("VALIGN", (0, 0), (-1, -1), "TOP")]))
    return story, single_frame_pages()


def _contact_kinds(pc: PrintedCV) -> list[tuple[str, str]]:
    out = []
    for _, value in pc.contact:
        kind = "email" if "@" in value else "web" if "/" in value else (
            "phone" if sum(c.isdigit() for c in value) >= 6 else "address")
        if kind not in dict(out):
            out.append((kind, value))
    return out
