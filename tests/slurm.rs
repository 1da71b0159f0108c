//! Issue 45: the distributed recipes the researcher's guide gives, run for real on a
//! one-node Slurm cluster (Debian's slurm-wlm and munge, which `npm test` installs as
//! root): an array sweep with `--shard auto/N`, merged, and a policies run split with
//! `--part auto/N`, joined — each to the same bits as one machine's run. The test starts
//! the cluster's daemons in a directory of its own, on ports of its own, and stops them.
#![cfg(not(target_arch = "wasm32"))]

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_freshlab");

/// A one-node cluster: munged (if none runs), slurmctld and slurmd, stopped on drop.
struct Cluster {
    dir: PathBuf,
    conf: PathBuf,
    munged: bool,
}

fn have(program: &str) -> bool {
    Command::new("sh").args(["-c", &format!("command -v {program}")]).stdout(Stdio::null()).status().is_ok_and(|s| s.success())
}

fn sh(command: &str, env: &[(&str, &Path)]) -> (bool, String) {
    let mut cmd = Command::new("sh");
    cmd.args(["-c", command]);
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().expect("sh runs");
    (out.status.success(), format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr)))
}

impl Cluster {
    fn start() -> Cluster {
        for program in ["sbatch", "slurmctld", "slurmd", "munged", "munge"] {
            assert!(have(program), "{program} is missing: this test needs Debian's slurm-wlm and munge (npm test installs them when run as root: apt-get install slurm-wlm munge)");
        }
        let dir = std::env::temp_dir().join(format!("freshlab-slurm-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        for sub in ["state", "spool"] {
            std::fs::create_dir_all(dir.join(sub)).unwrap();
        }
        let host = String::from_utf8(Command::new("hostname").arg("-s").output().unwrap().stdout).unwrap().trim().to_string();
        // ports of this process's own, so that no other cluster answers
        let port = 20_000 + (std::process::id() % 20_000) as u16;
        let d = dir.display();
        let conf = dir.join("slurm.conf");
        std::fs::write(
            &conf,
            format!(
                "ClusterName=freshlab\nSlurmctldHost={host}\nSlurmctldPort={port}\nSlurmdPort={}\nSlurmUser=root\nSlurmdUser=root\nAuthType=auth/munge\n\
                 ProctrackType=proctrack/linuxproc\nTaskPlugin=task/none\nMpiDefault=none\nReturnToService=2\nSchedulerType=sched/backfill\n\
                 SelectType=select/cons_tres\nSelectTypeParameters=CR_Core\nJobCompType=jobcomp/none\nAccountingStorageType=accounting_storage/none\n\
                 JobAcctGatherType=jobacct_gather/none\nStateSaveLocation={d}/state\nSlurmdSpoolDir={d}/spool\nSlurmctldPidFile={d}/slurmctld.pid\n\
                 SlurmdPidFile={d}/slurmd.pid\nSlurmctldLogFile={d}/slurmctld.log\nSlurmdLogFile={d}/slurmd.log\n\
                 NodeName={host} CPUs={} State=UNKNOWN\nPartitionName=main Nodes=ALL Default=YES MaxTime=INFINITE State=UP\n",
                port + 1,
                std::thread::available_parallelism().map_or(1, |n| n.get()),
            ),
        )
        .unwrap();
        // munge: the one the machine runs, or one started here as the munge user
        let munged = !sh("munge -n | unmunge", &[]).0;
        if munged {
            let (ok, out) = sh("mkdir -p /run/munge && chown munge:munge /run/munge && runuser -u munge -- /usr/sbin/munged", &[]);
            assert!(ok, "munged did not start (as root: runuser -u munge -- munged): {out}");
        }
        let cluster = Cluster { dir: dir.clone(), conf: conf.clone(), munged };
        let env = [("SLURM_CONF", conf.as_path())];
        let (ok, out) = sh(&format!("slurmctld -i -f {}", conf.display()), &env);
        assert!(ok, "slurmctld did not start: {out}");
        let (ok, out) = sh(&format!("slurmd -f {}", conf.display()), &env);
        assert!(ok, "slurmd did not start: {out}");
        // the node comes up idle within seconds
        let started = Instant::now();
        loop {
            let (_, out) = sh("sinfo -h -o %t", &env);
            if out.trim() == "idle" {
                break;
            }
            assert!(started.elapsed() < Duration::from_secs(60), "the node is not idle after 60 s ({out}); logs in {}", dir.display());
            std::thread::sleep(Duration::from_millis(250));
        }
        cluster
    }

    /// `sbatch --wait` of an array job of `tasks` tasks running `command`.
    fn array(&self, tasks: usize, command: &str) {
        let out = self.dir.join("job-%a.out");
        let (ok, text) = sh(&format!("sbatch --array=1-{tasks} --wait --output={} --wrap '{command}'", out.display()), &[("SLURM_CONF", self.conf.as_path())]);
        let logs: String = (1..=tasks).map(|k| std::fs::read_to_string(self.dir.join(format!("job-{k}.out"))).unwrap_or_default()).collect();
        assert!(ok, "the array job failed: {text}\n{logs}");
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        for pid in ["slurmd.pid", "slurmctld.pid"] {
            if let Ok(text) = std::fs::read_to_string(self.dir.join(pid)) {
                let _ = Command::new("kill").arg(text.trim()).status();
            }
        }
        if self.munged {
            let _ = Command::new("pkill").args(["-x", "munged"]).status();
        }
        std::thread::sleep(Duration::from_millis(300));
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn freshlab(args: &[&str]) -> String {
    let out = Command::new(BIN).args(args).output().expect("runs");
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn a_slurm_array_sweep_and_a_split_run_equal_one_machines() {
    let started = Instant::now();
    let cluster = Cluster::start();
    let dir = cluster.dir.clone();
    let path = |name: &str| dir.join(name).display().to_string();

    // the guide's sweep recipe: an array of 2 tasks, each --shard auto/2, then --merge
    let vary = "--vary seed=1,2,3 --vary politeness_seconds=21600,43200 --repository.pages 1500 --repository.servers 30 --horizon-days 60 --crawlers []";
    cluster.array(2, &format!("{BIN} sweep policies {vary} --dir {} --shard auto/2 --quiet", path("sweep")));
    freshlab(&["sweep", "--merge", &path("sweep")]);
    let args: Vec<String> = format!("sweep policies {vary} --dir {} --quiet", path("alone")).split(' ').map(String::from).collect();
    freshlab(&args.iter().map(String::as_str).collect::<Vec<_>>());
    let merged = std::fs::read(path("sweep/sweep.csv")).unwrap();
    assert_eq!(merged, std::fs::read(path("alone/sweep.csv")).unwrap(), "the array's merged sweep = one machine's");
    for p in 1..=6 {
        let name = format!("point-{p:04}.json");
        assert_eq!(std::fs::read(dir.join("sweep").join(&name)).unwrap(), std::fs::read(dir.join("alone").join(&name)).unwrap(), "{name}");
    }

    // one policies run cut in 3 parts by the array (--part auto/3), joined
    let run = "policies --repository.pages 3000 --repository.servers 40 --horizon-days 100 --crawlers [] --quiet";
    cluster.array(3, &format!("{BIN} {run} --part auto/3 --out {}", path("part-$SLURM_ARRAY_TASK_ID.json")));
    let parts: Vec<String> = (1..=3).map(|k| path(&format!("part-{k}.json"))).collect();
    let mut join = vec!["join"];
    join.extend(parts.iter().map(String::as_str));
    let joined = path("joined.json");
    join.extend(["--out", &joined]);
    let printed = freshlab(&join);
    let whole = path("whole.json");
    let mut alone: Vec<&str> = run.split(' ').collect();
    alone.extend(["--out", &whole]);
    assert_eq!(printed, freshlab(&alone), "the joined printout = one machine's");
    assert_eq!(std::fs::read(&joined).unwrap(), std::fs::read(&whole).unwrap(), "the joined file = one machine's, to the last bit");
    drop(cluster);
    println!("one-node Slurm: a 6-point array sweep and a 3-part run, each equal to one machine's, in {:.1} s (daemons started and stopped)", started.elapsed().as_secs_f64());
}
