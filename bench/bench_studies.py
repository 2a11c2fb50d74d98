"""Criteria studies on Dask: the Wahba standard study with 1 and 2 workers, memory, criterion costs, a
16-worker prediction, k-fold CV against GridSearchCV, and the ready-made studies beside the papers.

    python bench/bench_studies.py [--replicates R] [--ready-made R2] [--skip-sklearn]

1. The ready-made ``wahba2001_standard`` study (n = 200, 30 × 30 grid, GACV, XA, XA_J, 5-fold CV,
   exact LOO) with R replicates (default 100) on an embedded LocalCluster of 1 and then 2 worker
   processes (one thread each), into fresh results folders: wall time (cluster start included),
   speed-up, the peak resident memory of each worker, and the two tables compared (identical but
   for the timings).
2. Each criterion's cost per replicate relative to one GACV surface (median over replicates of the
   per-replicate ratio), from the 1-worker run.
3. A 16-worker prediction: the measured task durations of the 1-worker run list-scheduled, in
   submission order, on 16 identical workers, plus the measured fixed cost (cluster start, writing).
4. The scikit-learn way for the baseline criterion at equal resources (one core):
   ``GridSearchCV(SVC(C=1/(2nλ), gamma=1/(2σ²)), cv=StratifiedKFold(5, shuffle=True))`` over the same
   900 grid points on 2 replicates, against our 5-fold CV surface on the same data.
5. Every ready-made spec at R2 replicates (default 20) on 2 workers: median and IQR beside the
   published number.
"""
from __future__ import annotations

import argparse
import heapq
import os
import resource
import tempfile
import time

import numpy as np
import pandas as pd
from _common import Timer, machine

from svmviz.figures.studies import compute_costs
from svmviz.studies import load_spec, ready_made_specs, run_study
from svmviz.studies.engine import _local_cluster, _numba_cache_dir, StudyWorkerSetup
from svmviz.published import published_table
from svmviz.studies.results import comparable, summary_table


def _peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def run_on(spec, n_workers: int, out: str):
    """Run ``spec`` on a fresh LocalCluster of ``n_workers``; wall time includes starting it."""
    from distributed import Client

    with Timer() as t:
        cluster = _local_cluster(n_workers)
        client = Client(cluster, set_as_default=False)
        client.register_plugin(StudyWorkerSetup(_numba_cache_dir()), name=StudyWorkerSetup.name)
        start_rss = client.run(_peak_rss_mb)
        res = run_study(spec, out, client=client)
        peak = client.run(_peak_rss_mb)
        client.close()
        cluster.close()
    return res, t.seconds, start_rss, peak


def list_schedule(durations, workers: int) -> float:
    """Makespan of tasks started in order, each on the first free worker."""
    free = [0.0] * workers
    heapq.heapify(free)
    end = 0.0
    for d in durations:
        t = heapq.heappop(free)
        heapq.heappush(free, t + d)
        end = max(end, t + d)
    return end


def task_durations(table: pd.DataFrame) -> np.ndarray:
    t = table.drop_duplicates(["dataset_index", "replicate"]).sort_values(["replicate", "dataset_index"])
    return t["task_seconds"].to_numpy(float)


def sklearn_kfold(spec, replicates: int):
    from sklearn.model_selection import GridSearchCV, StratifiedKFold
    from sklearn.svm import SVC

    from svmviz.studies.tasks import make_task_data
    from svmviz.tuning import kfold_cv_surface

    lam, sig = np.asarray(spec.svm.lambdas), np.asarray(spec.svm.sigmas)
    rows = []
    for r in range(replicates):
        td = make_task_data(spec, 0, r)
        X, y, n = td.train.X, td.train.y, td.train.X.shape[0]
        with Timer() as ours:
            cv = kfold_cv_surface(X, y, lam, sig, k=spec.svm.k, seed=td.seeds.cv, n_threads=1)
        grid = [{"C": [1 / (2 * n * l)], "gamma": [1 / (2 * s**2)]} for s in sig for l in lam]
        with Timer() as ref:
            g = GridSearchCV(SVC(), grid, cv=StratifiedKFold(spec.svm.k, shuffle=True, random_state=td.seeds.cv),
                             n_jobs=1, refit=False).fit(X, y)
        sizes = np.bincount(cv.folds)
        pooled = sum((1 - g.cv_results_[f"split{j}_test_score"]) * sizes[j] for j in range(spec.svm.k)) / n
        agree = float(np.mean(np.abs(pooled.reshape(cv.values.shape) - cv.values) < 1e-12))
        rows.append((ours.seconds, ref.seconds, agree))
    return rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--replicates", type=int, default=100)
    ap.add_argument("--ready-made", type=int, default=20)
    ap.add_argument("--skip-sklearn", action="store_true")
    ap.add_argument("--skip-scaling", action="store_true")
    ap.add_argument("--out-dir", default=None, help="folder for the results folders (default: a new temporary one); "
                    "its w2/ can be shown or resumed with 'svmviz study show|run'")
    args = ap.parse_args()
    pd.set_option("display.width", 220)
    pd.set_option("display.max_columns", 30)
    print(f"machine: {machine()}, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}")
    spec = load_spec("wahba2001_standard").replace(replicates=args.replicates)
    base = args.out_dir or tempfile.mkdtemp(prefix="bench-studies-")
    os.makedirs(base, exist_ok=True)

    if not args.skip_scaling:
        print(f"\n1. wahba2001_standard, R = {args.replicates}, n = 200, 30 x 30, criteria {spec.svm.criteria}")
        loads = [os.getloadavg()[0]]
        res1, t1, rss1_0, rss1 = run_on(spec, 1, os.path.join(base, "w1"))
        loads.append(os.getloadavg()[0])
        res2, t2, rss2_0, rss2 = run_on(spec, 2, os.path.join(base, "w2"))
        loads.append(os.getloadavg()[0])
        same = comparable(res1.table).equals(comparable(res2.table))
        print(f"   1 worker : {t1:8.1f} s   peak RSS per worker {max(rss1.values()):.0f} MB "
              f"(after start {max(rss1_0.values()):.0f} MB)")
        print(f"   2 workers: {t2:8.1f} s   peak RSS per worker {max(rss2.values()):.0f} MB "
              f"(after start {max(rss2_0.values()):.0f} MB)")
        print(f"   speed-up 2 vs 1 workers: {t1 / t2:.2f}x   tables identical but for timings: {same}")
        print(f"   load average (1-min) before / between / after: {' / '.join(f'{v:.2f}' for v in loads)}")
        d1 = task_durations(res1.table)
        print(f"   task seconds (1 worker): median {np.median(d1):.2f}, IQR [{np.quantile(d1, 0.25):.2f}, "
              f"{np.quantile(d1, 0.75):.2f}], max {d1.max():.2f}, sum {d1.sum():.1f}; fixed cost "
              f"{t1 - d1.sum():.1f} s")

        print("\n2. cost per replicate relative to one GACV surface (1-worker run)")
        cd = compute_costs(res1.table)
        for lab, med, rel in zip(cd.labels, cd.median_seconds, cd.relative):
            print(f"   {lab:<18} median {med:7.3f} s   {rel:7.2f} x GACV")

        print("\n3. prediction for 16 workers (same per-task times, no contention)")
        fixed = t1 - d1.sum()
        for w in (1, 2, 16):
            print(f"   {w:>2} workers: {list_schedule(d1, w) + fixed:8.1f} s predicted"
                  + (f" (measured {t1:.1f})" if w == 1 else f" (measured {t2:.1f})" if w == 2 else ""))
        print(f"   R = 100 on 16 workers: {list_schedule(np.resize(d1, 100), 16) + fixed:.1f} s predicted")
        if args.replicates < 100:  # what R = 100 would take here: this run's task times repeated (extrapolated)
            d2 = task_durations(res2.table)
            fixed2 = t2 - list_schedule(d2, 2)
            print(f"   R = 100 extrapolated from R = {args.replicates} (task times repeated): 1 worker "
                  f"{np.resize(d1, 100).sum() + fixed:.1f} s, 2 workers {list_schedule(np.resize(d2, 100), 2) + fixed2:.1f} s")

    if not args.skip_sklearn:
        print("\n4. 5-fold CV surface 30 x 30, n = 200, one core: ours vs GridSearchCV(SVC) on the same folds")
        for r, (ours, ref, agree) in enumerate(sklearn_kfold(spec, 2)):
            print(f"   replicate {r} (load {os.getloadavg()[0]:.2f}): ours {ours:6.2f} s   GridSearchCV {ref:7.2f} s   ratio {ref / ours:6.1f}x   "
                  f"grid points with equal CV error {agree:.3f}")

    if args.ready_made:
        print(f"\n5. ready-made studies at R = {args.ready_made} on 2 workers")
        for name in ready_made_specs():
            s = load_spec(name).replace(replicates=args.ready_made)
            with Timer() as t:
                res = run_study(s, os.path.join(base, name), workers=2)
            pub = published_table(s.published)
            summ = summary_table(res.table, published=pub)
            print(f"\n   {name}: {res.n_done}/{res.n_tasks} tasks, {res.n_failed} failed, {t.seconds:.1f} s")
            cols = ["dataset", "label", "inefficiency_median", "inefficiency_q25", "inefficiency_q75",
                    "test_error_median", "test_error_q25", "test_error_q75", "machine_size_median",
                    "win_vs_baseline_inefficiency", "win_vs_baseline_test", "published"]
            if res.n_failed:
                print(f"   first error: {res.errors['error'].iloc[0]}")
            if summ.empty:
                continue
            print(summ[cols].round(4).to_string(index=False))
            if "threshold" in res.table and res.table["threshold"].notna().any():
                th = res.table.groupby(["dataset", "criterion"])["threshold"].describe()[["50%", "25%", "75%"]]
                print("   threshold Th median [IQR]:")
                print(th.round(3).to_string())
            if "tune_error" in res.table and res.table["tune_error"].notna().any():
                te = res.table.groupby(["criterion"])[["tune_error", "lam"]].median()
                print("   median tuning error and λ:")
                print(te.round(4).to_string())
    print(f"\nresults folders under {base}")


if __name__ == "__main__":
    main()
