// Starts Swagger UI on the API description this origin serves. "Authorize" takes a Firebase ID
// token, kept in this page's memory only: persisting it would leave a bearer credential in
// localStorage, readable by any script on the origin long after the tab is closed.
window.ui = SwaggerUIBundle({
  url: '/api/openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  persistAuthorization: false,
  displayRequestDuration: true,
  // The default validator badge calls validator.swagger.io; keep every request on this origin.
  validatorUrl: null,
});
