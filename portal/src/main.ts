import "./app";
