/*
| Routes of the admin module are registered here.
*/
export {}
