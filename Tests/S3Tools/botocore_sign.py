"""Signs S3 requests with botocore's own SigV4 signer (S3SigV4Auth), the reference the Swift
signer is checked against. Reads a JSON list of requests on stdin; prints, for each, the URL
botocore signed and the headers it added, as a JSON list on stdout.

A request: method, host (with :port when not the default), base (the path before the key: "/"
or "/BUCKET/"), key (encoded here as botocore's serializer does: each byte outside RFC 3986's
unreserved set percent-encoded once, '/' kept), query (a list of [name, value], not encoded), region, access_key_id, secret_access_key, session_token (or
null), time ("YYYYMMDDTHHMMSSZ"), scheme.
"""
import datetime
import json
import sys
from urllib.parse import quote

import botocore.auth
from botocore.awsrequest import AWSRequest
from botocore.config import Config
from botocore.credentials import Credentials


def sign(case):
    when = datetime.datetime.strptime(case["time"], "%Y%m%dT%H%M%SZ")
    botocore.auth.get_current_datetime = lambda: when
    query = "&".join(quote(name, safe="-_.~") + "=" + quote(value, safe="-_.~") for name, value in case["query"])
    path = case["base"] + quote(case["key"], safe="/~")
    url = "%s://%s%s%s" % (case["scheme"], case["host"], path, "?" + query if query else "")
    request = AWSRequest(method=case["method"], url=url)
    # Unsigned payload for GET and HEAD, as the player sends them.
    request.context["client_config"] = Config(s3={"payload_signing_enabled": False})
    credentials = Credentials(case["access_key_id"], case["secret_access_key"], case.get("session_token"))
    botocore.auth.S3SigV4Auth(credentials, "s3", case["region"]).add_auth(request)
    return {"url": url, "headers": {name.lower(): value for name, value in request.headers.items()}}


print(json.dumps([sign(case) for case in json.load(sys.stdin)]))
