//! Drop-out expansion (T. Lincke, "Strategies for the Automatic Construction of Opening
//! Books", Computers and Games 2000, LNCS 2063), in the form of Fuego's `SgBookBuilder`: the
//! book is a DAG of positions (transpositions merged by key), every unexpanded leaf is valued
//! by a search, an expanded node's value is the negamax of its children's, and one priority
//! function serves both sides.
//!
//! Values are centi-men from the side to move's view. The priority of a child `c` seen from
//! its parent `p` is `alpha * (value(p) + value(c)) + priority(c) + 1`: the drop-out
//! `value(p) - (-value(c))` (0 for the best move, more for worse ones) weighted by `alpha`
//! (plies per centi-man), plus the child's own priority, plus one per ply so the book does not
//! grow along one line forever. A leaf's priority is 0, a terminal position's infinite, an
//! expanded node's the least over its children. Each step descends from the root of least
//! priority through the children of least priority (the first in move order on ties) to a
//! leaf, expands it (every legal move, each new position valued, all new positions of one step
//! valued in one call so a [`Tree`] can search them on several threads), and backs the values
//! and priorities up through every parent, deepest nodes first, each node once per step.
//!
//! Generic over [`Tree`], so a synthetic tree with known values tests the order of expansion
//! and the backed-up values; [`super::build`](mod@super::build) plays it on real positions with damiera's search.

use crate::book::{BookError, BookMove, Entry};
use std::collections::{BTreeSet, HashMap};

/// The game a book is built over.
pub trait Tree {
    /// A position.
    type Pos: Clone;
    /// Its book key (transpositions share it).
    fn key(&self, p: &Self::Pos) -> u64;
    /// Its legal moves and the positions after them, in a fixed order.
    fn moves(&self, p: &Self::Pos) -> Vec<(BookMove, Self::Pos)>;
    /// The search values of positions, in order: each a [`Valued`] (centi-men from its side
    /// to move's view, and the depth in plies of the search that gave it).
    ///
    /// # Errors
    /// The valuer failed (an external process ended): the build stops, its book kept.
    fn values(&self, ps: &[Self::Pos]) -> Result<Vec<Valued>, BookError>;
}

/// A leaf's search value: centi-men from the side to move's view, and the search's depth in
/// plies (0 when not searched).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Valued {
    /// The value, centi-men, side to move's view.
    pub value: i32,
    /// The plies of the search that gave it.
    pub depth: u8,
}

/// One position of the DAG.
#[derive(Clone, Debug)]
struct Node<P> {
    pos: P,
    key: u64,
    value: i32,
    /// The depth of the search that valued it as a leaf.
    depth: u8,
    priority: f64,
    expanded: bool,
    terminal: bool,
    /// Plies from a root when first reached (propagation order: deepest first).
    ply: u32,
    children: Vec<(BookMove, usize)>,
    parents: Vec<usize>,
}

/// The book under construction: its nodes, by key, and the roots.
pub struct Dag<T: Tree> {
    tree: T,
    alpha: f64,
    nodes: Vec<Node<T::Pos>>,
    index: HashMap<u64, usize>,
    roots: Vec<usize>,
    /// The expanded nodes' keys, in the order of expansion.
    order: Vec<u64>,
}

impl<T: Tree> Dag<T> {
    /// A DAG holding `roots` (each valued, none expanded); `alpha` weighs a centi-man of
    /// drop-out against a ply of depth (e.g. 0.02: 50 centi-men cost one ply).
    ///
    /// # Errors
    /// The tree's valuer failed.
    pub fn new(tree: T, roots: &[T::Pos], alpha: f64) -> Result<Dag<T>, BookError> {
        let mut dag = Dag {
            tree,
            alpha,
            nodes: Vec::new(),
            index: HashMap::new(),
            roots: Vec::new(),
            order: Vec::new(),
        };
        let values = dag.tree.values(roots)?;
        for (p, v) in roots.iter().zip(values) {
            let i = dag.node(p.clone(), 0);
            dag.nodes[i].value = v.value;
            dag.nodes[i].depth = v.depth;
            if !dag.roots.contains(&i) {
                dag.roots.push(i);
            }
        }
        Ok(dag)
    }

    /// The DAG a book's entries describe (a resumed build): the roots, then every position
    /// whose key has entries expanded again, its children valued by the entries' scores
    /// (moves without an entry searched), values and priorities recomputed.
    ///
    /// # Errors
    /// The tree's valuer failed.
    pub fn from_entries(
        tree: T,
        roots: &[T::Pos],
        alpha: f64,
        entries: &[Entry],
    ) -> Result<Dag<T>, BookError> {
        let mut dag = Dag::new(tree, roots, alpha)?;
        let mut scores: HashMap<(u64, BookMove), (i16, u8)> = HashMap::new();
        for e in entries {
            scores.insert((e.key, e.mv), (e.score, e.depth));
        }
        let booked: BTreeSet<u64> = entries.iter().map(|e| e.key).collect();
        let mut next = 0;
        let mut queue = dag.roots.clone();
        while next < queue.len() {
            let i = queue[next];
            next += 1;
            if dag.nodes[i].expanded || !booked.contains(&dag.nodes[i].key) {
                continue;
            }
            let key = dag.nodes[i].key;
            let fresh = dag.link_children(i);
            let mut unknown = Vec::new();
            for &(mv, c) in &dag.nodes[i].children.clone() {
                if fresh.contains(&c) {
                    match scores.get(&(key, mv)) {
                        Some(&(s, d)) => {
                            dag.nodes[c].value = -i32::from(s);
                            dag.nodes[c].depth = d;
                        }
                        None => unknown.push(c),
                    }
                }
                queue.push(c);
            }
            dag.value_nodes(&unknown)?;
            dag.order.push(key);
        }
        let mut all: Vec<usize> = (0..dag.nodes.len()).collect();
        all.sort_by_key(|&i| std::cmp::Reverse(dag.nodes[i].ply));
        for i in all {
            dag.recompute(i);
        }
        Ok(dag)
    }

    /// The node of `pos`, made (unvalued, at `ply`) if new.
    fn node(&mut self, pos: T::Pos, ply: u32) -> usize {
        let key = self.tree.key(&pos);
        if let Some(&i) = self.index.get(&key) {
            return i;
        }
        self.nodes.push(Node {
            pos,
            key,
            value: 0,
            depth: 0,
            priority: 0.0,
            expanded: false,
            terminal: false,
            ply,
            children: Vec::new(),
            parents: Vec::new(),
        });
        self.index.insert(key, self.nodes.len() - 1);
        self.nodes.len() - 1
    }

    /// Gives node `i` its children (marking it expanded, or terminal without moves): the new
    /// nodes among them.
    fn link_children(&mut self, i: usize) -> Vec<usize> {
        let moves = self.tree.moves(&self.nodes[i].pos);
        if moves.is_empty() {
            self.nodes[i].terminal = true;
            return Vec::new();
        }
        let ply = self.nodes[i].ply + 1;
        let mut fresh = Vec::new();
        for (mv, pos) in moves {
            let before = self.nodes.len();
            let c = self.node(pos, ply);
            if c >= before {
                fresh.push(c);
            }
            if !self.nodes[c].parents.contains(&i) {
                self.nodes[c].parents.push(i);
            }
            self.nodes[i].children.push((mv, c));
        }
        self.nodes[i].expanded = true;
        fresh
    }

    /// Values `nodes` by the tree's search.
    fn value_nodes(&mut self, nodes: &[usize]) -> Result<(), BookError> {
        let positions: Vec<T::Pos> = nodes.iter().map(|&c| self.nodes[c].pos.clone()).collect();
        let values = self.tree.values(&positions)?;
        if values.len() != nodes.len() {
            return Err(BookError(format!(
                "{} values for {} positions",
                values.len(),
                nodes.len()
            )));
        }
        for (&c, v) in nodes.iter().zip(values) {
            self.nodes[c].value = v.value;
            self.nodes[c].depth = v.depth;
        }
        Ok(())
    }

    /// The priority of child `c` of a parent valued `parent`.
    fn child_priority(&self, parent: i32, c: usize) -> f64 {
        let child = &self.nodes[c];
        self.alpha * f64::from(parent + child.value) + child.priority + 1.0
    }

    /// Node `i`'s value and priority from its children's (a leaf: 0, terminal: infinite).
    /// Whether either changed.
    fn recompute(&mut self, i: usize) -> bool {
        let n = &self.nodes[i];
        let (value, priority) = if n.terminal {
            (n.value, f64::INFINITY)
        } else if !n.expanded {
            (n.value, 0.0)
        } else {
            let value = n
                .children
                .iter()
                .map(|&(_, c)| -self.nodes[c].value)
                .max()
                .expect("an expanded node has children");
            let priority = n
                .children
                .iter()
                .map(|&(_, c)| self.child_priority(value, c))
                .fold(f64::INFINITY, f64::min);
            (value, priority)
        };
        let changed = value != n.value || priority != n.priority;
        self.nodes[i].value = value;
        self.nodes[i].priority = priority;
        changed
    }

    /// Backs up from node `i` through its ancestors, deepest first, each once.
    fn propagate(&mut self, i: usize) {
        let mut pending: BTreeSet<(std::cmp::Reverse<u32>, usize)> = BTreeSet::new();
        let mut done = BTreeSet::new();
        pending.insert((std::cmp::Reverse(self.nodes[i].ply), i));
        while let Some((_, n)) = pending.pop_first() {
            if !done.insert(n) {
                continue;
            }
            if self.recompute(n) || n == i {
                for &p in &self.nodes[n].parents {
                    if !done.contains(&p) {
                        pending.insert((std::cmp::Reverse(self.nodes[p].ply), p));
                    }
                }
            }
        }
    }

    /// The leaf to expand next: from the root of least priority through the children of
    /// least priority; `None` when every line ends in a terminal position.
    fn select(&self) -> Option<usize> {
        let mut best = *self
            .roots
            .iter()
            .min_by(|&&a, &&b| self.nodes[a].priority.total_cmp(&self.nodes[b].priority))?;
        let mut path = vec![best];
        while self.nodes[best].expanded {
            let value = self.nodes[best].value;
            let next = self.nodes[best]
                .children
                .iter()
                .map(|&(_, c)| c)
                .filter(|c| !path.contains(c))
                .map(|c| (self.child_priority(value, c), c))
                .filter(|(p, _)| p.is_finite())
                .min_by(|a, b| a.0.total_cmp(&b.0))?;
            best = next.1;
            path.push(best);
        }
        (!self.nodes[best].terminal && self.nodes[best].priority.is_finite()).then_some(best)
    }

    /// One step: the leaf of least priority expanded (its new children valued) and the values
    /// backed up. Returns the expanded position's key, `None` when nothing is left to expand
    /// (a terminal leaf met on the way is marked and the step retried).
    ///
    /// # Errors
    /// The tree's valuer failed: the DAG is as before the step (the leaf not expanded).
    pub fn step(&mut self) -> Result<Option<u64>, BookError> {
        loop {
            let Some(i) = self.select() else {
                return Ok(None);
            };
            let mark = self.nodes.len();
            let fresh = self.link_children(i);
            if self.nodes[i].terminal {
                self.propagate(i);
                continue;
            }
            if let Err(e) = self.value_nodes(&fresh) {
                self.unlink_children(i, mark);
                return Err(e);
            }
            self.propagate(i);
            self.order.push(self.nodes[i].key);
            return Ok(Some(self.nodes[i].key));
        }
    }

    /// Undoes [`Self::link_children`] of node `i`, whose new nodes start at index `mark`.
    fn unlink_children(&mut self, i: usize, mark: usize) {
        for (_, c) in std::mem::take(&mut self.nodes[i].children) {
            self.nodes[c].parents.retain(|&p| p != i);
        }
        for n in self.nodes.drain(mark..) {
            self.index.remove(&n.key);
        }
        self.nodes[i].expanded = false;
    }

    /// The expanded positions (the book's positions).
    pub fn positions(&self) -> usize {
        self.order.len()
    }

    /// The expanded positions' keys in the order of expansion.
    pub fn expansion_order(&self) -> &[u64] {
        &self.order
    }

    /// The value of the position with `key`, if it is in the DAG (centi-men, side to move).
    pub fn value(&self, key: u64) -> Option<i32> {
        self.index.get(&key).map(|&i| self.nodes[i].value)
    }

    /// The value of the position with `key` and the depth of the search behind it (a leaf's
    /// own; an expanded position's best child's, down to a leaf), if it is in the DAG.
    pub fn valued(&self, key: u64) -> Option<Valued> {
        let mut i = *self.index.get(&key)?;
        let value = self.nodes[i].value;
        // Bounded: king moves can make a line return to a position.
        for _ in 0..self.nodes.len() {
            if !self.nodes[i].expanded {
                break;
            }
            i = self.best_child(i);
        }
        Some(Valued {
            value,
            depth: self.nodes[i].depth,
        })
    }

    /// The child of expanded node `i` with the best value for `i`'s side (the first on a tie).
    fn best_child(&self, i: usize) -> usize {
        let mut best = self.nodes[i].children[0].1;
        for &(_, c) in &self.nodes[i].children {
            if self.nodes[c].value < self.nodes[best].value {
                best = c;
            }
        }
        best
    }

    /// The number of positions reached by more than one move (transpositions merged).
    pub fn parents(&self, key: u64) -> usize {
        self.index
            .get(&key)
            .map_or(0, |&i| self.nodes[i].parents.len())
    }

    /// The book's entries: for every expanded position, each move with the value of the
    /// position it leads to from the mover's view (clamped to ±32767), the depth of the search
    /// behind that value ([`Self::valued`]) and the count 1 if that position was expanded too,
    /// else 0.
    pub fn entries(&self) -> Vec<Entry> {
        let mut out = Vec::new();
        for n in self.nodes.iter().filter(|n| n.expanded) {
            for &(mv, c) in &n.children {
                let child = &self.nodes[c];
                let depth = self.valued(child.key).map_or(child.depth, |v| v.depth);
                out.push(Entry {
                    key: n.key,
                    mv,
                    score: (-child.value).clamp(-32767, 32767) as i16,
                    depth,
                    count: u32::from(child.expanded),
                });
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A synthetic tree: node ids, children by id, leaf values by id.
    struct Synthetic {
        children: HashMap<u64, Vec<u64>>,
        values: HashMap<u64, i32>,
    }

    impl Tree for &Synthetic {
        type Pos = u64;
        fn key(&self, p: &u64) -> u64 {
            *p
        }
        fn moves(&self, p: &u64) -> Vec<(BookMove, u64)> {
            let kids = self.children.get(p).cloned().unwrap_or_default();
            kids.into_iter()
                .map(|c| {
                    let mv = BookMove {
                        from: *p as u8,
                        to: c as u8,
                        captured: 0,
                    };
                    (mv, c)
                })
                .collect()
        }
        fn values(&self, ps: &[u64]) -> Result<Vec<Valued>, BookError> {
            Ok(ps
                .iter()
                .map(|p| Valued {
                    value: self.values[p],
                    depth: 4,
                })
                .collect())
        }
    }

    fn synthetic() -> Synthetic {
        // R=1: A=2, B=3; A: C=4, D=5; C: E=6, F=7; D: E=6 (a transposition), G=8;
        // B: H=9; E has no moves.
        let children = [
            (1, vec![2, 3]),
            (2, vec![4, 5]),
            (4, vec![6, 7]),
            (5, vec![6, 8]),
            (3, vec![9]),
        ];
        let values = [
            (1, 5),
            (2, -10),
            (3, 0),
            (4, 5),
            (5, 20),
            (6, -30),
            (7, 40),
            (8, 50),
            (9, 7),
        ];
        Synthetic {
            children: children.into_iter().collect(),
            values: values.into_iter().collect(),
        }
    }

    #[test]
    fn drop_out_expansion_follows_the_priorities_and_backs_up_negamax() {
        let tree = synthetic();
        let mut dag = Dag::new(&tree, &[1], 1.0).unwrap();
        // R: A 1, B 11 -> A. A: C 1, D 16 -> C (R: A 2, B 6). Then R: A 2, B 21; A: C 12,
        // D 1 -> D. Then A: C 2, D 2 (a tie: C) -> C's best child E (terminal, skipped);
        // then R: A 73, B 31 -> B.
        for want in [1, 2, 4, 5] {
            assert_eq!(dag.step(), Ok(Some(want)));
        }
        assert_eq!(dag.value(1), Some(30));
        assert_eq!(dag.value(2), Some(-30));
        assert_eq!(dag.value(4), Some(30));
        assert_eq!(dag.value(5), Some(30));
        assert_eq!(dag.parents(6), 2, "E is one node reached from C and from D");
        assert_eq!(dag.step(), Ok(Some(3)));
        assert_eq!(dag.value(3), Some(-7));
        assert_eq!(dag.value(1), Some(30));
        assert_eq!(dag.expansion_order(), &[1, 2, 4, 5, 3]);

        // The entries rebuild the same DAG (a resumed build), which goes on the same way.
        let entries = dag.entries();
        assert!(entries.iter().all(|e| e.depth == 4));
        assert_eq!(entries.len(), 2 + 2 + 2 + 2 + 1);
        let mut again = Dag::from_entries(&tree, &[1], 1.0, &entries).unwrap();
        assert_eq!(again.positions(), 5);
        assert_eq!(again.value(1), Some(30));
        assert_eq!(again.step(), dag.step());
    }
}
