"""Job match: a job description read into requirements, the requirement x candidate matrix, its export, and the explanation of a rank."""
