"""Google Drive API v3's small languages, for google_drive.py: the `fields` parameter and the `q`
search terms this emulator answers.

Docs:
  [fields]  https://developers.google.com/drive/api/guides/fields-parameter      (only the fields asked for are
              answered; files(a,b) selects in each file)
  [search]  https://developers.google.com/drive/api/guides/search-files and .../guides/ref-search-terms
              ('ID' in parents, trashed = false, name = 'x', joined with and; \\' and \\\\ escapes in literals)
"""

import re


def split_fields(text):
    """`a,b(c,d),e` -> {"a": None, "b": "c,d", "e": None} [fields]."""
    out, depth, start, name = {}, 0, 0, None
    for i, c in enumerate(text + ","):
        if c == "(":
            if depth == 0:
                name, start = text[start:i].strip(), i + 1
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                out[name] = text[start:i]
                start, name = i + 1, None
        elif c == "," and depth == 0:
            if text[start:i].strip():
                out[text[start:i].strip()] = None
            start = i + 1
    return out


def select(item, fields):
    """Only the fields asked for [fields]; `files/x` paths are not used here."""
    chosen = split_fields(fields)
    return {k: item[k] for k in chosen if k in item}


CLAUSE = re.compile(r"""\s*(?:'((?:[^'\\]|\\.)*)'\s+in\s+parents|trashed\s*=\s*(false|true)|name\s*=\s*'((?:[^'\\]|\\.)*)')\s*""")


def unescape(text):
    return re.sub(r"\\(.)", r"\1", text)


def parse_q(q):
    """`'ID' in parents and trashed = false [and name = 'x']` -> (parent id, name) or None [search]."""
    parent, name, trashed = None, None, None
    for clause in re.split(r"\s+and\s+", q.strip()):
        m = CLAUSE.fullmatch(clause)
        if not m:
            return None
        if m.group(1) is not None:
            parent = unescape(m.group(1))
        elif m.group(2) is not None:
            trashed = m.group(2)
        else:
            name = unescape(m.group(3))
    if parent is None or trashed != "false":
        return None
    return parent, name
