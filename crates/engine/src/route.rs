//! Routes: the links a packet crosses, every route back to back in one array, each followed
//! by an end marker. A packet carries the position of its route's first link (its
//! [`RouteId`]), so finding the link of its next hop is one read, not two (route start, then
//! link) — with many flows each is a cache miss (benchmarks/scale/README.md).

use crate::packet::RouteId;

/// Marks the end of a route in the table.
const END: u32 = u32::MAX;

#[derive(Debug, Default)]
pub struct Routes {
    table: Vec<u32>,
}

impl Routes {
    /// The table of `routes` (lists of link indices) and the [`RouteId`] of each, in order.
    pub fn new(routes: &[Vec<u32>]) -> (Routes, Vec<RouteId>) {
        let mut table = Vec::with_capacity(routes.iter().map(|route| route.len() + 1).sum());
        let ids = routes
            .iter()
            .map(|route| {
                assert!(!route.is_empty() && !route.contains(&END), "a route is a non-empty list of link indices");
                let id = table.len() as RouteId;
                table.extend_from_slice(route);
                table.push(END);
                id
            })
            .collect();
        (Routes { table }, ids)
    }

    /// The link at position `hop` of `route`, or `None` past its last link.
    #[inline]
    pub fn link(&self, route: RouteId, hop: u16) -> Option<u32> {
        let link = self.table[route as usize + hop as usize];
        (link != END).then_some(link)
    }

    #[inline]
    pub fn first_link(&self, route: RouteId) -> u32 {
        self.table[route as usize]
    }

    /// The links of `route`, in order.
    pub fn links(&self, route: RouteId) -> &[u32] {
        let rest = &self.table[route as usize..];
        let len = rest.iter().position(|&link| link == END).expect("an end marker");
        &rest[..len]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hops_follow_each_route_to_its_end() {
        let (routes, ids) = Routes::new(&[vec![3, 1, 4], vec![1], vec![5, 9]]);
        assert_eq!(ids, vec![0, 4, 6]);
        let walk = |route| (0..).map_while(|hop| routes.link(route, hop)).collect::<Vec<u32>>();
        assert_eq!(walk(ids[0]), vec![3, 1, 4]);
        assert_eq!(walk(ids[1]), vec![1]);
        assert_eq!(walk(ids[2]), vec![5, 9]);
        assert_eq!(routes.links(ids[0]), &[3, 1, 4]);
        assert_eq!(routes.links(ids[2]), &[5, 9]);
    }
}
