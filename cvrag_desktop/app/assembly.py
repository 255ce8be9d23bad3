"""The one place the application is put together: the GUI, the CLI and the self-test all build an :class:`App`.

An :class:`App` owns one session's paths, settings and stores (the catalog, opened on
first use; the search index and the chat assistant, opened lazily because they are slow
to open) and exposes an operation module per thing a recruiter acts on. Front ends call
the operation modules; they never build a store or a service of their own.
"""

from __future__ import annotations

import functools
import logging
import threading
from collections.abc import Callable
from typing import TypeVar

from cvrag_desktop.app.blind import BlindOps
from cvrag_desktop.app.chat import ChatOps
from cvrag_desktop.app.compliance import ComplianceOps
from cvrag_desktop.app.forgetting import expire_leftovers, resume_forgets
from cvrag_desktop.app.jobs import JobMatchOps
from cvrag_desktop.app.screening import ScreeningOps
from cvrag_desktop.app.search import SearchOps
from cvrag_desktop.assistant.facts.store import CatalogFacts
from cvrag_desktop.catalog.compliance.audit import audit_for, close_audit
from cvrag_desktop.catalog.db import Catalog
from cvrag_desktop.catalog.directory import PeopleDirectory
from cvrag_desktop.catalog.shortlists import ShortlistStore
from cvrag_desktop.config import AppPaths, Settings, app_paths, load_settings

log = logging.getLogger(__name__)
T = TypeVar("T")


class App:
    """One application session: settings, the stores, and the operation modules over them.

    The stores are opened on first use and closed by :meth:`close`; the operation modules
    (``library``, ``people``, ``screening``, ``blind``, ``search``, ``chat``, ``jobs``,
    ``compliance``, ``health``) are the doors front ends use.
    """

    def __init__(self, paths: AppPaths | None = None, settings: Settings | None = None, *,
                 catalog: Catalog | None = None, index=None) -> None:
        """``catalog`` and ``index`` are given only where the stores are already open (tests, benchmarks)."""
        self.paths = (paths or app_paths()).ensure()
        self.settings = settings or load_settings(self.paths)
        self._catalog: Catalog | None = catalog
        self._index = index
        self._assistant = None
        self._directory = None
        self._criteria_facts = None
        self._resuming = False
        self._open_lock = threading.RLock()  # workers may reach the lazy parts at the same time
        self.resumed_forgets: list[dict] = []
        self.last_forget: dict = {}
        self.screening = ScreeningOps(self)
        self.blind = BlindOps(self)
        self.search = SearchOps(self)
        self.chat = ChatOps(self)
        self.jobs = JobMatchOps(self)
        self.compliance = ComplianceOps(self)

    # ---- the operation modules whose code is large: imported on first use (a `cvrag ask` never
    # loads the import pipeline, the generator or the diagnostics) ---------------------------------
    @functools.cached_property
    def library(self):
        """Import, files, rebuild, reindex, the generator (:class:`~cvrag_desktop.app.library.LibraryOps`)."""
        from cvrag_desktop.app.library import LibraryOps

        return LibraryOps(self)

    @functools.cached_property
    def people(self):
        """People, documents, merge and split (:class:`~cvrag_desktop.app.people.PeopleOps`)."""
        from cvrag_desktop.app.people import PeopleOps

        return PeopleOps(self)

    @functools.cached_property
    def health(self):
        """Doctor, the model's status, settings, diagnostics, previews (:class:`~cvrag_desktop.app.health.HealthOps`)."""
        from cvrag_desktop.app.health import HealthOps

        return HealthOps(self)

    # ---- the stores (opened on first use) ----------------------------------------------------
    @property
    def catalog(self) -> Catalog:
        """The catalog, opened on first use (an interrupted forget is finished, expired leftovers removed)."""
        with self._open_lock:
            if self._catalog is None:
                self._catalog = Catalog(self.paths.catalog_db, self.paths.library_dir)
                if not self._catalog.read_only and self._catalog.pending_forgets():
                    self.resumed_forgets = self._resume_forgets()
                if not self._catalog.read_only:
                    expire_leftovers(self.paths.data_dir)
            return self._catalog

    def replace_catalog(self, make: Callable[[], T]) -> T:
        """Close every store, then use the catalog ``make()`` opens (its result, or its ``.catalog``).

        The catalog rebuild sets the damaged file aside and opens a fresh one; no worker can
        open a store in between. Returns what ``make`` returned.
        """
        with self._open_lock:
            self.close()
            made = make()
            self._catalog = made if isinstance(made, Catalog) else made.catalog
            return made

    def _resume_forgets(self) -> list[dict]:
        """Finish interrupted forgets once (opening the index while resuming does not start another round)."""
        if self._resuming:
            return []
        self._resuming = True
        try:
            return resume_forgets(self, self._catalog)
        finally:
            self._resuming = False

    @property
    def index(self):
        """The search index (opened and reconciled with the catalog on first use)."""
        with self._open_lock:
            if self._index is None:
                from cvrag_desktop.index.service import SearchService

                self._index = SearchService(self.catalog, self.paths, self.settings)
                if not self.catalog.read_only:  # a read-only home is searched as it is
                    self._index.start()  # reconciles, unless the last clean close left it in sync
                if not self.catalog.read_only and self.catalog.pending_forgets():
                    self.resumed_forgets = self._resume_forgets()
            return self._index

    @property
    def assistant(self):
        """The chat assistant: grounded, cited answers; conversation memory in the data dir."""
        with self._open_lock:
            if self._assistant is None:
                from cvrag_desktop.assistant.service import AssistantService

                self._assistant = AssistantService(self.catalog, self.index, self.paths, self.settings)
            return self._assistant

    @property
    def assistant_if_open(self):
        """The assistant when it is already open, else None (a forget scrubs its thread store if so)."""
        return self._assistant

    @property
    def directory(self):
        """Documents grouped into people (rule + the recruiter's merges and splits), cached."""
        with self._open_lock:
            if self._directory is None:
                self._directory = PeopleDirectory(self.catalog)
            return self._directory

    def drop_directory(self) -> None:
        """Forget the cached grouping (after a forget: the people change)."""
        self._directory = None

    @property
    def criteria_facts(self):
        """The parsed facts the chat counts with (the assistant's own), so facets and counts agree."""
        with self._open_lock:
            if self._assistant is not None:
                return self._assistant.facts
            if self._criteria_facts is None:
                self._criteria_facts = CatalogFacts(self.catalog)
            return self._criteria_facts

    @property
    def audit(self):
        """The audit trail of this data home (``catalog/compliance/audit.py``): hash-chained, pseudonymous."""
        return audit_for(self.catalog, self.paths.settings_file)  # its head anchored in the catalog and settings

    @property
    def shortlists(self):
        """Named shortlists with a note per candidate (catalog tables)."""
        return ShortlistStore(self.catalog)

    def close(self) -> None:
        """Release files (conversation store, index lock, catalog connection)."""
        if self._assistant is not None:
            self._assistant.close()
            self._assistant = None
        if self._index is not None:
            self._index.close()
            self._index = None
        self._directory = None
        if self._catalog is not None:
            close_audit(self._catalog)
            self._catalog.close()
            self._catalog = None
