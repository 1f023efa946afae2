//! Agreement between the rater and reference Sudoku Explainer ratings.

/// Spearman rank correlation (average ranks for ties).
pub fn spearman(a: &[f64], b: &[f64]) -> f64 {
    pearson(&ranks(a), &ranks(b))
}

/// Share (0 to 1) of ratings equal to the reference at one decimal.
pub fn exact_share(ours: &[f64], theirs: &[f64]) -> f64 {
    let exact = ours
        .iter()
        .zip(theirs)
        .filter(|(a, b)| ((*a - *b).abs() * 10.0).round() == 0.0)
        .count();
    exact as f64 / ours.len().max(1) as f64
}

/// The error of one whole reference rating (all puzzles the reference rates `k.0`–`k.9`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BucketError {
    /// The whole rating `k`.
    pub bucket: u32,
    pub puzzles: usize,
    /// Mean of ours − theirs.
    pub mean_signed: f64,
    /// Mean of |ours − theirs|.
    pub mean_absolute: f64,
}

/// Error per whole reference rating, lowest first.
pub fn bucket_errors(ours: &[f64], theirs: &[f64]) -> Vec<BucketError> {
    let mut sums: std::collections::BTreeMap<u32, (usize, f64, f64)> = Default::default();
    for (a, b) in ours.iter().zip(theirs) {
        let e = sums.entry((b + 1e-9).floor().max(0.0) as u32).or_default();
        e.0 += 1;
        e.1 += a - b;
        e.2 += (a - b).abs();
    }
    sums.into_iter()
        .map(|(bucket, (n, signed, absolute))| BucketError {
            bucket,
            puzzles: n,
            mean_signed: signed / n as f64,
            mean_absolute: absolute / n as f64,
        })
        .collect()
}

fn ranks(x: &[f64]) -> Vec<f64> {
    let mut order: Vec<usize> = (0..x.len()).collect();
    order.sort_by(|&i, &j| x[i].total_cmp(&x[j]));
    let mut r = vec![0.0; x.len()];
    let mut i = 0;
    while i < order.len() {
        let mut j = i;
        while j + 1 < order.len() && x[order[j + 1]] == x[order[i]] {
            j += 1;
        }
        let avg = (i + j) as f64 / 2.0 + 1.0;
        for &k in &order[i..=j] {
            r[k] = avg;
        }
        i = j + 1;
    }
    r
}

fn pearson(a: &[f64], b: &[f64]) -> f64 {
    let n = a.len() as f64;
    let (ma, mb) = (a.iter().sum::<f64>() / n, b.iter().sum::<f64>() / n);
    let (mut num, mut da, mut db) = (0.0, 0.0, 0.0);
    for (x, y) in a.iter().zip(b) {
        num += (x - ma) * (y - mb);
        da += (x - ma).powi(2);
        db += (y - mb).powi(2);
    }
    num / (da * db).sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spearman_of_monotone_data_is_one() {
        let a = [1.0, 2.0, 3.0, 4.0];
        let b = [10.0, 20.0, 25.0, 100.0];
        assert!((spearman(&a, &b) - 1.0).abs() < 1e-12);
        let c = [4.0, 3.0, 2.0, 1.0];
        assert!((spearman(&a, &c) + 1.0).abs() < 1e-12);
    }

    #[test]
    fn exact_share_and_bucket_errors() {
        let theirs = [2.0, 2.5, 4.3, 4.6];
        let ours = [2.0, 2.8, 4.3, 5.6];
        assert_eq!(exact_share(&ours, &theirs), 0.5);
        let buckets = bucket_errors(&ours, &theirs);
        assert_eq!(buckets.len(), 2);
        assert_eq!((buckets[0].bucket, buckets[0].puzzles), (2, 2));
        assert!((buckets[0].mean_signed - 0.15).abs() < 1e-9);
        assert!((buckets[1].mean_absolute - 0.5).abs() < 1e-9);
    }

    #[test]
    fn ties_get_average_ranks() {
        assert_eq!(ranks(&[5.0, 1.0, 5.0]), vec![2.5, 1.0, 2.5]);
    }
}
