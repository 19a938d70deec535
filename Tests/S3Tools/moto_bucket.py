"""Prepares a moto server for the S3 tests, with boto3 (the reference client):

  moto_bucket.py setup PORT BUCKET SIGNED
      With SIGNED = 1 (moto started with INITIAL_NO_AUTH_ACTION_COUNT=3), makes an IAM user
      allowed everything and prints its access key id and secret; else prints "test test".
      Then makes the bucket (path-style, us-east-1).
  moto_bucket.py upload PORT BUCKET KEY_ID SECRET KEY=FILE...
      Uploads each file under its key.
  moto_bucket.py delete PORT BUCKET KEY_ID SECRET KEY...
      Deletes those objects.
  moto_bucket.py fill PORT BUCKET KEY_ID SECRET COUNT FILE
      Uploads FILE COUNT times, 100 to a folder (a bucket for the library benchmark).
"""
import json
import sys

import boto3
from botocore.config import Config


def client(service, port, key_id, secret):
    return boto3.client(service, endpoint_url="http://127.0.0.1:%s" % port, region_name="us-east-1",
                        aws_access_key_id=key_id, aws_secret_access_key=secret,
                        config=Config(s3={"addressing_style": "path"}))


def main(command, port, bucket, *rest):
    if command == "setup":
        key_id, secret = "test", "test"
        if rest[0] == "1":
            iam = client("iam", port, "setup", "setup")
            iam.create_user(UserName="player")
            policy = {"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Action": "*", "Resource": "*"}]}
            iam.put_user_policy(UserName="player", PolicyName="all", PolicyDocument=json.dumps(policy))
            made = iam.create_access_key(UserName="player")["AccessKey"]
            key_id, secret = made["AccessKeyId"], made["SecretAccessKey"]
        client("s3", port, key_id, secret).create_bucket(Bucket=bucket)
        print(key_id, secret)
    elif command == "upload":
        s3 = client("s3", port, rest[0], rest[1])
        for pair in rest[2:]:
            key, _, path = pair.rpartition("=")
            with open(path, "rb") as file:
                s3.put_object(Bucket=bucket, Key=key, Body=file.read())
    elif command == "delete":
        s3 = client("s3", port, rest[0], rest[1])
        for key in rest[2:]:
            s3.delete_object(Bucket=bucket, Key=key)
    elif command == "fill":
        s3 = client("s3", port, rest[0], rest[1])
        with open(rest[3], "rb") as file:
            body = file.read()
        for number in range(int(rest[2])):
            s3.put_object(Bucket=bucket, Key="folder%03d/track%05d.mp3" % (number // 100, number), Body=body)


main(*sys.argv[1:])
