"""The official Python Hub client against the emulator: what it reads, as JSON on stdout.

Run by test/integration/hubConformance.test.ts with the virtual environment `npm run setup` makes.
Arguments: endpoint, public repo, private repo, token, small file, LFS file, download folder.
"""
import json
import sys

from huggingface_hub import HfApi, hf_hub_download
from huggingface_hub.errors import RepositoryNotFoundError

endpoint, public, private, token, small, lfs, cache = sys.argv[1:8]
api = HfApi(endpoint=endpoint)
out = {}


def read(repo, tok, key):
    info = api.model_info(repo, files_metadata=True, token=tok)
    paths = api.get_paths_info(repo, [small, lfs], token=tok)
    out[key] = {
        "files": api.list_repo_files(repo, token=tok),
        "sha": info.sha,
        "siblings": {s.rfilename: [s.size, s.lfs.sha256 if s.lfs else None] for s in info.siblings},
        "paths": {p.path: [p.size, p.lfs.sha256 if p.lfs else None] for p in paths},
        "small": hf_hub_download(repo, small, cache_dir=f"{cache}/{key}", token=tok, endpoint=endpoint),
        "lfs": hf_hub_download(repo, lfs, cache_dir=f"{cache}/{key}", token=tok, endpoint=endpoint),
        "refs": [[b.name, b.target_commit] for b in api.list_repo_refs(repo, token=tok).branches],
        "commits": [c.commit_id for c in api.list_repo_commits(repo, token=tok)],
    }


read(public, False, "public")
try:
    api.model_info(private, token=False)
    out["privateWithout"] = "read"
except RepositoryNotFoundError as e:
    out["privateWithout"] = type(e).__name__
read(private, token, "private")
print(json.dumps(out))
