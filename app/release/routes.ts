/*
| Routes of the release module are registered here.
*/
export {}
