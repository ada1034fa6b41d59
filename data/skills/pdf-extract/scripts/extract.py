"""Dumps the text and tables of every page of a PDF as JSON."""
import json
import sys

import pdfplumber

with pdfplumber.open(sys.argv[1]) as pdf:
    pages = [{"page": i + 1, "text": p.extract_text() or "", "tables": p.extract_tables()} for i, p in enumerate(pdf.pages)]
print(json.dumps(pages, indent=2))
