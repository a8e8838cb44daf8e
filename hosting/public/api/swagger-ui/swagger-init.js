// Starts Swagger UI on the API description this origin serves. "Authorize" takes a Firebase ID
// token; persistAuthorization keeps it across reloads (in this browser's localStorage).
window.ui = SwaggerUIBundle({
  url: '/api/openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  persistAuthorization: true,
  displayRequestDuration: true,
  // The default validator badge calls validator.swagger.io; keep every request on this origin.
  validatorUrl: null,
});
