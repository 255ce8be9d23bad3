"""Strict-friendly schemas and tolerant JSON extraction."""

from __future__ import annotations

import pytest
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from cvrag_desktop.llm.structured import extract_json_text, parse_structured, strict_json_schema


class Job(BaseModel):
    model_config = ConfigDict(extra="forbid")

    title: str | None = None
    current: bool = False


class Cv(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str
    jobs: list[Job] = Field(default_factory=list)
    boss: Job | None = None


def test_strict_schema_inlines_and_requires_everything():
    schema = strict_json_schema(Cv)
    assert "$defs" not in schema and "$ref" not in str(schema)
    assert schema["required"] == ["name", "jobs", "boss"]
    assert schema["additionalProperties"] is False
    job = schema["properties"]["jobs"]["anyOf"][0]["items"]
    assert set(job["properties"]) == {"title", "current"}  # a property named "title" survives
    assert job["required"] == ["title", "current"] and job["additionalProperties"] is False
    assert {"type": "null"} in schema["properties"]["jobs"]["anyOf"]  # optional -> nullable
    assert "title" not in schema and "default" not in str(schema["properties"]["jobs"])


@pytest.mark.parametrize(
    "reply",
    [
        '{"a": 1}',
        'Here you go: {"a": 1} hope that helps',
        '```json\n{"a": 1}\n```',
        '<think>maybe {"a": 2}? no</think>\n```\n{"a": 1}\n```',
        'prefix {not json} then {"a": 1}',
    ],
)
def test_extract_json_text(reply):
    assert extract_json_text(reply) == '{"a": 1}'


def test_extract_json_text_without_json():
    with pytest.raises(ValueError):
        extract_json_text("no braces here")


def test_parse_structured_nulls_become_defaults_but_errors_stay():
    cv = parse_structured('{"name": "A", "jobs": [{"title": null, "current": null}], "boss": null}', Cv)
    assert cv == Cv(name="A", jobs=[Job()])
    with pytest.raises(ValidationError):
        parse_structured('{"name": null}', Cv)
    with pytest.raises(ValidationError):
        parse_structured('{"name": "A", "extra": 1}', Cv)
