"""Quality measurement against labelled and generated CVs."""
