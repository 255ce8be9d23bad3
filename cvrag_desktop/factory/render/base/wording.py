"""Fixed wording of the newer layouts: Europass labels, skill category labels, company blurbs.

Kept in code (not in ``resources/factory``) because they are part of how a layout looks,
not facts about a candidate. Every table covers en, es, de, fr, pt and it (the blurbs also pl
and nl; other tables fall back to English).
"""

from __future__ import annotations

CEFR: tuple[str, ...] = ("a1", "a2", "b1", "b2", "c1", "c2")

# fmt: off

# Europass (2004-2012 template) labels, as the official translations print them.
EUROPASS: dict[str, dict[str, str]] = {
    "en": {
        "personal": "Personal information", "name": "First name(s) / Surname(s)", "address": "Address",
        "phone": "Telephone(s)", "email": "E-mail", "web": "Website", "desired": "Desired employment / Occupational field",
        "work": "Work experience", "dates": "Dates", "position": "Occupation or position held",
        "activities": "Main activities and responsibilities", "employer": "Name and address of employer",
        "education": "Education and training", "qualification": "Title of qualification awarded",
        "organisation": "Name and type of organisation providing education and training",
        "personal_skills": "Personal skills and competences", "mother": "Mother tongue(s)",
        "other": "Other language(s)", "self": "Self-assessment", "level": "European level (*)",
        "understanding": "Understanding", "speaking": "Speaking", "writing": "Writing", "listening": "Listening",
        "reading": "Reading", "interaction": "Spoken interaction", "production": "Spoken production",
        "technical": "Technical skills and competences", "certs": "Certificates",
    },
    "es": {
        "personal": "Información personal", "name": "Nombre(s) / Apellido(s)", "address": "Dirección",
        "phone": "Teléfono(s)", "email": "Correo electrónico", "web": "Página web", "desired": "Empleo deseado / familia profesional",
        "work": "Experiencia laboral", "dates": "Fechas", "position": "Profesión o cargo desempeñado",
        "activities": "Funciones y responsabilidades principales", "employer": "Nombre y dirección de la empresa o empleador",
        "education": "Educación y formación", "qualification": "Cualificación obtenida",
        "organisation": "Nombre y tipo del centro de estudios", "personal_skills": "Capacidades y competencias personales",
        "mother": "Lengua(s) materna(s)", "other": "Otro(s) idioma(s)", "self": "Autoevaluación",
        "level": "Nivel europeo (*)", "understanding": "Comprensión", "speaking": "Habla", "writing": "Escritura",
        "listening": "Comprensión auditiva", "reading": "Comprensión de lectura", "interaction": "Interacción oral",
        "production": "Capacidad oral", "technical": "Capacidades y competencias técnicas", "certs": "Certificados",
    },
    "de": {
        "personal": "Angaben zur Person", "name": "Nachname(n) / Vorname(n)", "address": "Adresse",
        "phone": "Telefon", "email": "E-Mail", "web": "Website", "desired": "Gewünschte Beschäftigung / Gewünschtes Berufsfeld",
        "work": "Berufserfahrung", "dates": "Zeitraum", "position": "Beruf oder Funktion",
        "activities": "Wichtigste Tätigkeiten und Zuständigkeiten", "employer": "Name und Adresse des Arbeitgebers",
        "education": "Schul- und Berufsbildung", "qualification": "Bezeichnung der erworbenen Qualifikation",
        "organisation": "Name und Art der Bildungseinrichtung", "personal_skills": "Persönliche Fähigkeiten und Kompetenzen",
        "mother": "Muttersprache(n)", "other": "Sonstige Sprache(n)", "self": "Selbstbeurteilung",
        "level": "Europäische Ebene (*)", "understanding": "Verstehen", "speaking": "Sprechen", "writing": "Schreiben",
        "listening": "Hören", "reading": "Lesen", "interaction": "An Gesprächen teilnehmen",
        "production": "Zusammenhängendes Sprechen", "technical": "Technische Fähigkeiten und Kompetenzen",
        "certs": "Zertifikate",
    },
    "fr": {
        "personal": "Information personnelle", "name": "Nom(s) / Prénom(s)", "address": "Adresse",
        "phone": "Téléphone(s)", "email": "Courrier électronique", "web": "Site web", "desired": "Emploi recherché / Domaine de compétence",
        "work": "Expérience professionnelle", "dates": "Dates", "position": "Fonction ou poste occupé",
        "activities": "Principales activités et responsabilités", "employer": "Nom et adresse de l'employeur",
        "education": "Éducation et formation", "qualification": "Intitulé du certificat ou diplôme délivré",
        "organisation": "Nom et type de l'établissement d'enseignement ou de formation",
        "personal_skills": "Aptitudes et compétences personnelles", "mother": "Langue(s) maternelle(s)",
        "other": "Autre(s) langue(s)", "self": "Auto-évaluation", "level": "Niveau européen (*)",
        "understanding": "Comprendre", "speaking": "Parler", "writing": "Écrire", "listening": "Écouter",
        "reading": "Lire", "interaction": "Prendre part à une conversation", "production": "S'exprimer oralement en continu",
        "technical": "Aptitudes et compétences techniques", "certs": "Certificats",
    },
    "pt": {
        "personal": "Informação pessoal", "name": "Apelido(s) / Nome(s) próprio(s)", "address": "Morada",
        "phone": "Telefone(s)", "email": "Correio(s) electrónico(s)", "web": "Página web", "desired": "Emprego pretendido / Área funcional",
        "work": "Experiência profissional", "dates": "Datas", "position": "Função ou cargo ocupado",
        "activities": "Principais actividades e responsabilidades", "employer": "Nome e morada do empregador",
        "education": "Educação e formação", "qualification": "Designação da qualificação atribuída",
        "organisation": "Nome e tipo da organização de ensino ou formação",
        "personal_skills": "Aptidões e competências pessoais", "mother": "Língua(s) materna(s)",
        "other": "Outra(s) língua(s)", "self": "Auto-avaliação", "level": "Nível europeu (*)",
        "understanding": "Compreensão", "speaking": "Conversação", "writing": "Escrita", "listening": "Compreensão oral",
        "reading": "Leitura", "interaction": "Interacção oral", "production": "Produção oral",
        "technical": "Aptidões e competências técnicas", "certs": "Certificados",
    },
    "it": {
        "personal": "Informazioni personali", "name": "Nome(i) / Cognome(i)", "address": "Indirizzo",
        "phone": "Telefono", "email": "E-mail", "web": "Sito web", "desired": "Occupazione desiderata / Settore professionale",
        "work": "Esperienza professionale", "dates": "Date", "position": "Lavoro o posizione ricoperti",
        "activities": "Principali attività e responsabilità", "employer": "Nome e indirizzo del datore di lavoro",
        "education": "Istruzione e formazione", "qualification": "Titolo della qualifica rilasciata",
        "organisation": "Nome e tipo d'organizzazione erogatrice dell'istruzione e formazione",
        "personal_skills": "Capacità e competenze personali", "mother": "Madrelingua(e)", "other": "Altra(e) lingua(e)",
        "self": "Autovalutazione", "level": "Livello europeo (*)", "understanding": "Comprensione",
        "speaking": "Parlato", "writing": "Scritto", "listening": "Ascolto", "reading": "Lettura",
        "interaction": "Interazione orale", "production": "Produzione orale",
        "technical": "Capacità e competenze tecniche", "certs": "Certificazioni",
    },
}

# Category labels of grouped skills ("Languages: Python, Go"), in print order.
CATEGORY_LABELS: dict[str, dict[str, str]] = {
    "en": {"lang": "Languages", "fw": "Frameworks", "data": "Data & Cloud", "tools": "Tools", "other": "Other"},
    "es": {"lang": "Lenguajes", "fw": "Frameworks", "data": "Datos y cloud", "tools": "Herramientas", "other": "Otros"},
    "de": {"lang": "Programmiersprachen", "fw": "Frameworks", "data": "Daten & Cloud", "tools": "Tools",
           "other": "Sonstiges"},
    "fr": {"lang": "Langages", "fw": "Frameworks", "data": "Données & cloud", "tools": "Outils", "other": "Autres"},
    "pt": {"lang": "Linguagens", "fw": "Frameworks", "data": "Dados e nuvem", "tools": "Ferramentas", "other": "Outros"},
    "it": {"lang": "Linguaggi", "fw": "Framework", "data": "Dati e cloud", "tools": "Strumenti", "other": "Altro"},
}

_CATEGORIES: dict[str, str] = {
    "lang": "Python, Java, Go, C#, JavaScript, TypeScript, Kotlin, Swift, Dart, Scala, R, SQL, Bash, Objective-C, "
    "HTML, CSS, Sass",
    "fw": "Django, React, Angular, Vue.js, Spring Boot, FastAPI, Node.js, Next.js, Flutter, React Native, PyTorch, "
    "TensorFlow, scikit-learn, pandas, Redux, Jetpack Compose, SwiftUI, Tailwind CSS, Jest, Cypress, Playwright, "
    "Selenium, Appium, XGBoost, Hugging Face, Vite, Webpack, Storybook, gRPC, GraphQL, REST",
    "data": "AWS, Azure, GCP, PostgreSQL, MySQL, MongoDB, Redis, Kafka, Elasticsearch, Snowflake, BigQuery, "
    "Databricks, Hadoop, Apache Spark, Airflow, dbt, RabbitMQ, Firebase, MLflow, Kubeflow, Vector Databases, "
    "Feature Stores, ONNX",
    "tools": "Docker, Kubernetes, Git, Jenkins, Terraform, Ansible, Helm, ArgoCD, Grafana, Prometheus, Nginx, Linux, "
    "Jira, GitHub Actions, GitLab CI, ELK Stack, Postman, JMeter, TestRail, Figma, Sketch, Miro, Adobe XD, "
    "Photoshop, Illustrator, Excel, SAP, Salesforce, Tableau, Power BI, Workday, HubSpot, DATEV, Sage, "
    "SuccessFactors, Moodle, Google Classroom, Microsoft Office, AutoCAD, SolidWorks, CATIA, ANSYS, MATLAB, "
    "Siemens NX, Jupyter, Xcode, Android Studio, WMS, CRM, Google Ads, Google Analytics, Amplitude, LinkedIn Recruiter",
}
_CATEGORY_OF: dict[str, str] = {n: key for key, names in _CATEGORIES.items() for n in names.split(", ")}

# fmt: on


def skill_category(skill: str) -> str:
    """The category key ("lang", "fw", "data", "tools" or "other") of a ground-truth skill."""
    return _CATEGORY_OF.get(skill, "other")


# fmt: off
# One-line employer descriptions (moderncv style), per language and employer kind.
BLURBS: dict[str, dict[str, list[str]]] = {
    "en": {
        "company": ["{industry} company with about {n} employees", "Mid-sized {industry} business",
                    "Start-up in the {industry} sector", "{industry} group, {n} staff"],
        "hospital": ["Public hospital with about {n} staff", "Teaching hospital, {n} employees"],
        "school": ["State school with about {n} pupils", "Independent school, {n} pupils"],
        "law_firm": ["Law firm with about {n} lawyers", "Boutique law practice, {n} staff"],
        "restaurant": ["Restaurant with about {n} covers a day", "Hotel restaurant, {n} staff"],
        "public": ["Public body with about {n} staff", "Local authority, {n} employees"],
        "university": ["Research university, about {n} staff", "Public research institute, {n} researchers"],
    },
    "es": {
        "company": ["Empresa de {industry} con unos {n} empleados", "Compañía mediana del sector {industry}",
                    "Start-up del sector {industry}", "Grupo de {industry}, {n} empleados"],
        "hospital": ["Hospital público con unos {n} profesionales", "Hospital universitario, {n} empleados"],
        "school": ["Centro público con unos {n} alumnos", "Centro concertado, {n} alumnos"],
        "law_firm": ["Despacho con unos {n} abogados", "Bufete boutique, {n} profesionales"],
        "restaurant": ["Restaurante de unos {n} cubiertos diarios", "Restaurante de hotel, {n} empleados"],
        "public": ["Organismo público con unos {n} empleados", "Administración local, {n} empleados"],
        "university": ["Universidad pública, unos {n} investigadores", "Centro público de investigación, {n} investigadores"],
    },
    "de": {
        "company": ["Unternehmen der Branche {industry} mit rund {n} Mitarbeitenden",
                    "Mittelständischer Betrieb, Branche {industry}", "Start-up im Bereich {industry}"],
        "hospital": ["Krankenhaus der Maximalversorgung, rund {n} Beschäftigte", "Städtisches Klinikum, {n} Beschäftigte"],
        "school": ["Staatliche Schule mit rund {n} Schülern", "Private Schule, {n} Schüler"],
        "law_firm": ["Kanzlei mit rund {n} Berufsträgern", "Boutique-Kanzlei, {n} Beschäftigte"],
        "restaurant": ["Restaurant mit rund {n} Gedecken täglich", "Hotelrestaurant, {n} Beschäftigte"],
        "public": ["Behörde mit rund {n} Beschäftigten", "Kommunalverwaltung, {n} Beschäftigte"],
        "university": ["Forschungsuniversität, rund {n} Beschäftigte", "Öffentliches Forschungsinstitut, {n} Forschende"],
    },
    "fr": {
        "company": ["Entreprise du secteur {industry}, environ {n} salariés", "PME du secteur {industry}",
                    "Start-up dans le secteur {industry}"],
        "hospital": ["Centre hospitalier public, environ {n} agents", "CHU, {n} salariés"],
        "school": ["Établissement public, environ {n} élèves", "Établissement privé sous contrat, {n} élèves"],
        "law_firm": ["Cabinet d'environ {n} avocats", "Cabinet de niche, {n} collaborateurs"],
        "restaurant": ["Restaurant d'environ {n} couverts par jour", "Restaurant d'hôtel, {n} salariés"],
        "public": ["Administration publique, environ {n} agents", "Collectivité territoriale, {n} agents"],
        "university": ["Université de recherche, environ {n} personnels", "Institut public de recherche, {n} chercheurs"],
    },
    "pt": {
        "company": ["Empresa de {industry} com cerca de {n} funcionários", "Empresa de médio porte do setor de {industry}",
                    "Startup do setor de {industry}"],
        "hospital": ["Hospital público com cerca de {n} profissionais", "Hospital universitário, {n} funcionários"],
        "school": ["Escola pública com cerca de {n} alunos", "Escola particular, {n} alunos"],
        "law_firm": ["Escritório com cerca de {n} advogados", "Escritório boutique, {n} profissionais"],
        "restaurant": ["Restaurante com cerca de {n} refeições por dia", "Restaurante de hotel, {n} funcionários"],
        "public": ["Órgão público com cerca de {n} servidores", "Administração municipal, {n} servidores"],
        "university": ["Universidade pública, cerca de {n} pesquisadores", "Instituto público de pesquisa, {n} pesquisadores"],
    },
    "it": {
        "company": ["Azienda del settore {industry} con circa {n} dipendenti", "PMI del settore {industry}",
                    "Start-up nel settore {industry}"],
        "hospital": ["Azienda ospedaliera pubblica, circa {n} dipendenti", "Policlinico universitario, {n} dipendenti"],
        "school": ["Istituto statale con circa {n} studenti", "Istituto paritario, {n} studenti"],
        "law_firm": ["Studio legale con circa {n} avvocati", "Studio boutique, {n} professionisti"],
        "restaurant": ["Ristorante da circa {n} coperti al giorno", "Ristorante d'albergo, {n} dipendenti"],
        "public": ["Ente pubblico con circa {n} dipendenti", "Amministrazione locale, {n} dipendenti"],
        "university": ["Università pubblica, circa {n} ricercatori", "Istituto pubblico di ricerca, {n} ricercatori"],
    },
    "pl": {
        "company": ["Firma z branży: {industry}, około {n} pracowników", "Średnie przedsiębiorstwo, branża: {industry}",
                    "Start-up z branży: {industry}"],
        "hospital": ["Szpital publiczny, około {n} pracowników", "Szpital kliniczny, {n} pracowników"],
        "school": ["Szkoła publiczna, około {n} uczniów", "Szkoła niepubliczna, {n} uczniów"],
        "law_firm": ["Kancelaria zatrudniająca około {n} prawników", "Butikowa kancelaria, {n} osób"],
        "restaurant": ["Restauracja, około {n} gości dziennie", "Restauracja hotelowa, {n} pracowników"],
        "public": ["Instytucja publiczna, około {n} pracowników", "Samorząd lokalny, {n} pracowników"],
        "university": ["Uczelnia publiczna, około {n} pracowników", "Instytut badawczy, {n} naukowców"],
    },
    "nl": {
        "company": ["Bedrijf in de sector {industry} met ongeveer {n} medewerkers", "Middelgroot bedrijf, sector {industry}",
                    "Start-up in de sector {industry}"],
        "hospital": ["Algemeen ziekenhuis met ongeveer {n} medewerkers", "Academisch ziekenhuis, {n} medewerkers"],
        "school": ["Openbare school met ongeveer {n} leerlingen", "Bijzondere school, {n} leerlingen"],
        "law_firm": ["Advocatenkantoor met ongeveer {n} advocaten", "Boutique-kantoor, {n} medewerkers"],
        "restaurant": ["Restaurant met ongeveer {n} couverts per dag", "Hotelrestaurant, {n} medewerkers"],
        "public": ["Overheidsorganisatie met ongeveer {n} medewerkers", "Gemeente, {n} medewerkers"],
        "university": ["Onderzoeksuniversiteit, ongeveer {n} medewerkers", "Publiek onderzoeksinstituut, {n} onderzoekers"],
    },
}
# fmt: on
