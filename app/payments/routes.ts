/*
| Routes of the payments module are registered here.
*/
export {}
